package io.clrheap.capture.nettrace;

import java.io.IOException;
import java.io.InputStream;

/** Little-endian reads from a stream, counting the bytes read so that every error can name its offset. */
final class StreamCursor {

    private final InputStream in;
    private long offset;

    StreamCursor(InputStream in) {
        this.in = in;
    }

    long offset() {
        return offset;
    }

    int u8(String what) throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new NettraceFormatException(offset, "truncated: the stream ends where " + what + " should be");
        }
        offset++;
        return b;
    }

    int i32(String what) throws IOException {
        byte[] b = bytes(4, what);
        return (b[0] & 0xff) | (b[1] & 0xff) << 8 | (b[2] & 0xff) << 16 | (b[3] & 0xff) << 24;
    }

    long i64(String what) throws IOException {
        byte[] b = bytes(8, what);
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = v << 8 | (b[i] & 0xff);
        }
        return v;
    }

    byte[] bytes(int n, String what) throws IOException {
        byte[] b = new byte[n];
        int done = 0;
        while (done < n) {
            int r = in.read(b, done, n - done);
            if (r < 0) {
                throw new NettraceFormatException(offset + done, "truncated: the stream ends " + (n - done) + " bytes short of " + what
                        + " (" + n + " bytes from offset " + offset + ")");
            }
            done += r;
        }
        offset += n;
        return b;
    }

    void skip(long n, String what) throws IOException {
        long left = n;
        while (left > 0) {
            long s = in.skip(left);
            if (s <= 0) {
                if (in.read() < 0) {
                    throw new NettraceFormatException(offset + n - left, "truncated: the stream ends inside " + what);
                }
                s = 1;
            }
            left -= s;
        }
        offset += n;
    }

}
