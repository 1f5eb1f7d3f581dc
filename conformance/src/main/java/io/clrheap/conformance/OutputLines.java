package io.clrheap.conformance;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A file read line by line as bytes, whatever it holds: a line longer than {@link #MAX_LINE_BYTES} is not kept (it is
 * returned as {@link Line#tooLong()}, its length counted to its end), and bytes that are not UTF-8 are decoded as
 * U+FFFD, each such place noted with its line and byte offsets. Never more than one line is held in memory.
 */
final class OutputLines implements Closeable {

    /** The longest line kept: 1 MiB. */
    static final int MAX_LINE_BYTES = 1 << 20;

    /** Invalid UTF-8 places described; the others are counted. */
    static final int NOTED = 5;

    /**
     * One line.
     *
     * @param number  its number, from 1
     * @param offset  the offset of its first byte in the file
     * @param text    its text (without the line end), or null when it is too long
     * @param length  its length in bytes (without the line end)
     * @param newline whether a newline ends it (the last line may have none)
     */
    record Line(long number, long offset, String text, long length, boolean newline) {
        boolean tooLong() {
            return text == null;
        }

        /** Why a too long line was not read. */
        String tooLongProblem() {
            return String.format(Locale.ROOT, "line %d is longer than the %d bytes (1 MiB) a line may have: %,d bytes%s; not read", number,
                    MAX_LINE_BYTES, length, newline ? "" : ", with no newline at its end");
        }
    }

    private final InputStream in;
    private final byte[] buffer = new byte[1 << 16];
    private int pos;
    private int end;
    private boolean eof;
    private byte[] line = new byte[256];
    private long number;
    private long offset;
    private long invalid;
    private final List<String> notes = new ArrayList<>();
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);

    OutputLines(InputStream in) {
        this.in = in;
    }

    static OutputLines open(Path file) throws IOException {
        return new OutputLines(Files.newInputStream(file));
    }

    /** The next line that fits, each longer one reported to {@code problems} and skipped; null at the end. */
    Line nextFitting(WalkerOutput.Problems problems) throws IOException {
        Line l;
        while ((l = next()) != null && l.tooLong()) {
            problems.add(l.tooLongProblem());
        }
        return l;
    }

    /** The next line, or null at the end. */
    Line next() throws IOException {
        int kept = 0;
        long length = 0;
        boolean newline = false;
        boolean any = false;
        while (true) {
            if (pos == end) {
                if (eof || !fill()) {
                    break;
                }
            }
            any = true;
            int start = pos;
            int nl = -1;
            for (int i = pos; i < end; i++) {
                if (buffer[i] == '\n') {
                    nl = i;
                    break;
                }
            }
            int stop = nl < 0 ? end : nl;
            int n = stop - start;
            if (length + n <= MAX_LINE_BYTES) {
                if (kept + n > line.length) {
                    line = java.util.Arrays.copyOf(line, Math.min(MAX_LINE_BYTES + 1, Math.max(line.length * 2, kept + n)));
                }
                System.arraycopy(buffer, start, line, kept, n);
                kept += n;
            }
            length += n;
            pos = nl < 0 ? end : nl + 1;
            if (nl >= 0) {
                newline = true;
                break;
            }
        }
        if (!any) {
            return null;
        }
        number++;
        long at = offset;
        offset += length + (newline ? 1 : 0);
        if (length > MAX_LINE_BYTES) {
            return new Line(number, at, null, length, newline);
        }
        int n = kept > 0 && line[kept - 1] == '\r' ? kept - 1 : kept;
        return new Line(number, at, decode(n, at), length, newline);
    }

    /** Where the input was not UTF-8 (the first few places; the rest counted), each read as U+FFFD. */
    List<String> notes() {
        List<String> all = new ArrayList<>(notes);
        if (invalid > NOTED) {
            all.add(String.format(Locale.ROOT, "%,d more bytes that are not UTF-8, each read as U+FFFD", invalid - NOTED));
        }
        return all;
    }

    /** How many invalid UTF-8 sequences were replaced. */
    long invalidSequences() {
        return invalid;
    }

    private boolean fill() throws IOException {
        int n = in.read(buffer);
        if (n <= 0) {
            eof = true;
            pos = end = 0;
            return false;
        }
        pos = 0;
        end = n;
        return true;
    }

    private String decode(int n, long lineOffset) {
        ByteBuffer bytes = ByteBuffer.wrap(line, 0, n);
        CharBuffer chars = CharBuffer.allocate(n + 1);
        decoder.reset();
        while (true) {
            CoderResult r = decoder.decode(bytes, chars, true);
            if (r.isError()) {
                int at = bytes.position();
                invalid++;
                if (invalid <= NOTED) {
                    StringBuilder hex = new StringBuilder();
                    for (int i = 0; i < r.length(); i++) {
                        hex.append(String.format(Locale.ROOT, "%s0x%02x", i == 0 ? "" : " ", line[at + i] & 0xff));
                    }
                    notes.add(String.format(Locale.ROOT, "line %d, byte %d (offset %d of the output): %s is not UTF-8; read as U+FFFD (\uFFFD)",
                            number, at + 1, lineOffset + at, hex));
                }
                chars.put('\uFFFD');
                bytes.position(at + r.length());
            } else if (r.isUnderflow()) {
                decoder.flush(chars);
                break;
            } else {
                throw new IllegalStateException("a line of " + n + " bytes decodes to more than " + chars.capacity() + " chars");
            }
        }
        return chars.flip().toString();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
