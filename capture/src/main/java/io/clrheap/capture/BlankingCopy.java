package io.clrheap.capture;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Copies ranges of a dump file to an output, writing zeros over the blanked ranges: the environment strings found
 * where the process keeps them, and the copies of those strings {@link EnvironmentCopies} finds while the bytes pass
 * (a copy crossing a chunk's edge is found: each chunk is searched with a string's length of the bytes around it).
 * Shared by both trimmers; the blanks are by offset in the input file.
 */
final class BlankingCopy {

    private static final int CHUNK = 1 << 20;

    private final FileChannel in;
    private final String file;
    private final List<BlankRange> blanks;
    private final EnvironmentCopies copies;
    private final byte[] buf = new byte[CHUNK];

    BlankingCopy(FileChannel in, String file, List<BlankRange> blanks, EnvironmentCopies copies) {
        this.in = in;
        this.file = file;
        this.blanks = blanks;
        this.copies = copies;
    }

    /** Writes {@code n} zero bytes. */
    void zeros(OutputStream out, long n) throws IOException {
        Arrays.fill(buf, (byte) 0);
        while (n > 0) {
            int k = (int) Math.min(n, buf.length);
            out.write(buf, 0, k);
            n -= k;
        }
    }

    /** Writes the input's bytes [offset, offset + length), blanked. */
    void copy(OutputStream out, long offset, long length) throws IOException {
        long done = 0;
        while (done < length) {
            int k = (int) Math.min(buf.length, length - done);
            if (copies.any()) {
                int reach = copies.longest();
                long from = Math.max(offset, offset + done - reach);
                long to = Math.min(offset + length, offset + done + k + 2L * reach);
                ByteBuffer window = ByteBuffer.allocate((int) (to - from));
                readFully(window, from);
                copies.find(window.array(), window.limit(), from, offset + done, offset + done + k + reach, blanks);
            }
            ByteBuffer b = ByteBuffer.wrap(buf, 0, k);
            readFully(b, offset + done);
            long from = offset + done;
            for (BlankRange z : blanks) {
                long s = Math.max(from, z.fileOffset());
                long e = Math.min(from + k, z.fileOffset() + z.length());
                if (s < e) {
                    Arrays.fill(buf, (int) (s - from), (int) (e - from), (byte) 0);
                }
            }
            out.write(buf, 0, k);
            done += k;
        }
    }

    private void readFully(ByteBuffer b, long at) throws IOException {
        while (b.hasRemaining()) {
            if (in.read(b, at + b.position()) < 0) {
                throw new IOException(String.format(Locale.ROOT, "%s at file offset 0x%x: unexpected end of file", file, at + b.position()));
            }
        }
        b.flip();
    }
}
