package io.clrheap.capture.nettrace;

import java.io.IOException;
import java.util.Locale;

/** A nettrace stream that is truncated, corrupt or past a limit; the message names the stream's byte offset. */
public final class NettraceFormatException extends IOException {

    private final long offset;

    public NettraceFormatException(long offset, String what) {
        super(String.format(Locale.ROOT, "nettrace stream at byte offset %d (0x%x): %s", offset, offset, what));
        this.offset = offset;
    }

    /** Where in the stream (bytes from the "Nettrace" magic) the problem was found. */
    public long offset() {
        return offset;
    }
}
