package io.clrheap.capture.nettrace;

import java.nio.charset.StandardCharsets;

/**
 * Reads an event payload's fields in order, as the runtime packs them: little endian, no alignment, strings in UTF-16
 * ending with a NUL character.
 */
public final class PayloadReader {

    private final byte[] b;
    private final long streamOffset;
    private final NettraceLimits limits;
    private int pos;

    public PayloadReader(byte[] payload, long streamOffset, NettraceLimits limits) {
        this.b = payload;
        this.streamOffset = streamOffset;
        this.limits = limits;
    }

    /** The event's offset in the stream, for messages. */
    public long streamOffset() {
        return streamOffset;
    }

    public int remaining() {
        return b.length - pos;
    }

    private void need(int n, String what) throws PayloadException {
        if (n > remaining()) {
            throw new PayloadException(what + " needs " + n + " bytes at payload offset " + pos + " of " + b.length);
        }
    }

    public int u8() throws PayloadException {
        need(1, "a byte");
        return b[pos++] & 0xff;
    }

    public int u16() throws PayloadException {
        need(2, "a 16-bit field");
        int v = (b[pos] & 0xff) | (b[pos + 1] & 0xff) << 8;
        pos += 2;
        return v;
    }

    public int i32() throws PayloadException {
        need(4, "a 32-bit field");
        int v = (b[pos] & 0xff) | (b[pos + 1] & 0xff) << 8 | (b[pos + 2] & 0xff) << 16 | (b[pos + 3] & 0xff) << 24;
        pos += 4;
        return v;
    }

    public long u32() throws PayloadException {
        return Integer.toUnsignedLong(i32());
    }

    public long i64() throws PayloadException {
        need(8, "a 64-bit field");
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = v << 8 | (b[pos + i] & 0xff);
        }
        pos += 8;
        return v;
    }

    /** A count of values that follow, each at least {@code minBytes} long: refused past the limit or past the payload. */
    public int count(String what, int minBytes) throws PayloadException {
        long n = u32();
        if (n > limits.maxBulkCount()) {
            throw new PayloadException(what + " count " + n + " is past the limit of " + limits.maxBulkCount());
        }
        if (n * minBytes > remaining()) {
            throw new PayloadException(what + " count " + n + " needs at least " + n * minBytes + " bytes; the payload has " + remaining() + " left");
        }
        return (int) n;
    }

    /** A UTF-16 string ending with a NUL character (the NUL is read and not returned). */
    public String utf16() throws PayloadException {
        int start = pos;
        int max = Math.min(b.length, start + 2 * (limits.maxStringChars() + 1));
        for (int i = start; i + 1 < max; i += 2) {
            if (b[i] == 0 && b[i + 1] == 0) {
                pos = i + 2;
                return new String(b, start, i - start, StandardCharsets.UTF_16LE);
            }
        }
        throw new PayloadException("a string at payload offset " + start + " has no NUL character within " + (max - start) / 2 + " characters");
    }
}
