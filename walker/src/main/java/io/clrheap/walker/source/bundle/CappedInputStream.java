package io.clrheap.walker.source.bundle;

import io.clrheap.walker.source.DumpFormatException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Counts the bytes a decompressor gives and fails as soon as they pass a cap: whatever a bundle's headers claim,
 * decompression stops within a few blocks of what its manifest declares.
 */
final class CappedInputStream extends FilterInputStream {

    private final String source;
    private long cap;
    private long count;

    CappedInputStream(InputStream in, String source, long cap) {
        super(in);
        this.source = source;
        this.cap = cap;
    }

    /** Sets the cap, once the manifest says how much there is to read. */
    void cap(long bytes) {
        cap = bytes;
    }

    long count() {
        return count;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (count >= cap) {
            // one byte past the cap tells "more" from "exactly the cap"
            int n = in.read(b, off, 1);
            if (n < 0) {
                return -1;
            }
            throw new DumpFormatException(String.format("%s: the archive decompresses past %d bytes, more than its manifest "
                    + "declares (with tar headers and padding); stopped (a decompression bomb or a corrupt archive)", source, cap));
        }
        int n = in.read(b, off, (int) Math.min(len, cap - count));
        if (n > 0) {
            count += n;
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        byte[] buffer = new byte[(int) Math.min(Math.max(n, 1), 8192)];
        long skipped = 0;
        while (skipped < n) {
            int r = read(buffer, 0, (int) Math.min(buffer.length, n - skipped));
            if (r < 0) {
                break;
            }
            skipped += r;
        }
        return skipped;
    }
}
