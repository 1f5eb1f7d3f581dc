package io.clrheap.walker.source.minidump;

import java.io.IOException;

/**
 * The file is not a minidump this reader accepts, or it is corrupt or truncated. The message names the file, what
 * is wrong and the file offset in {@code 0x} hex, e.g. {@code app.dmp: memory range 3 [0x7f0000000000,
 * 0x7f0000010000) has its bytes at 0x5000-0x15000, past the end of the file (0x9000 bytes) at file offset 0x1c8};
 * {@link #fileOffset()} gives the offset.
 */
public final class MinidumpFormatException extends IOException {

    private final long fileOffset;

    public MinidumpFormatException(String message, long fileOffset) {
        super(message);
        this.fileOffset = fileOffset;
    }

    /** Where in the file the fault is: the structure that is wrong, or that points at what is. */
    public long fileOffset() {
        return fileOffset;
    }
}
