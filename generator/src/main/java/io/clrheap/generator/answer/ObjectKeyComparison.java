package io.clrheap.generator.answer;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * An answer key's {@code objects.tsv} compared with objects a reader reports in address order, in one pass and in
 * constant memory: every object the key lists must be reported with its MethodTable and size, and nothing else. Keeps
 * the first differences to show.
 *
 * <p>In {@link Mode#HEAP_WALKER} mode the key is read as the DAC's own heap walker reports a heap: only the rows of kind
 * {@code object} (free and padding objects are skipped by it), with sizes rounded up to 8.
 */
public final class ObjectKeyComparison implements Closeable {

    /** How the key's rows are read. */
    public enum Mode {
        /** every row: objects, free objects, padding; sizes unaligned */
        EXACT,
        /** rows of kind {@code object} only, sizes rounded up to 8 (IDacDbiInterface::WalkHeap) */
        HEAP_WALKER
    }

    /** Differences kept for the report; the counts go on. */
    static final int SHOWN = 10;

    private final BufferedReader key;
    private final Path file;
    private final Mode mode;
    private final String reader;
    private long objects;
    private long bytes;
    private long expected;
    private long differences;
    private final List<String> first = new ArrayList<>();
    private long[] next;

    /**
     * Opens {@code answerDir/objects.tsv}.
     *
     * @param reader who reports the objects, for the messages ("the walker", "the DAC")
     */
    public ObjectKeyComparison(Path answerDir, Mode mode, String reader) throws IOException {
        this.file = answerDir.resolve("objects.tsv");
        this.mode = mode;
        this.reader = reader;
        this.key = Files.newBufferedReader(file, StandardCharsets.UTF_8);
        String header = key.readLine();
        if (header == null || !header.startsWith("address\tmt\tsize")) {
            key.close();
            throw new IOException(file + ": not an answer key (its first line is not the objects.tsv header)");
        }
        this.next = readRow();
    }

    /** The next object the reader reports (addresses ascending). */
    public void object(long address, long mt, long size) {
        objects++;
        bytes += size;
        missingBelow(address);
        long[] row = next;
        if (row == null || row[0] != address) {
            difference(String.format("extra: %s found 0x%x (MethodTable 0x%x, %d bytes), the answer key has no object there", reader, address, mt, size));
            return;
        }
        expected++;
        if (row[1] != mt || row[2] != size) {
            difference(String.format("wrong: 0x%x is MethodTable 0x%x, %d bytes in the answer key; %s says 0x%x, %d bytes", address, row[1], row[2],
                    reader, mt, size));
        }
        next = readRow();
    }

    /** Notes a problem the reader reported: it is shown with the differences. */
    public void note(String problem) {
        if (first.size() < SHOWN) {
            first.add(problem);
        }
    }

    /** The rest of the key is missing; the outcome, with {@code problems} problems the reader reported. */
    public AnswerKeyCheck.Result finish(long problems) {
        missingBelow(-1L); // every address is below 2^64 - 1, unsigned
        return new AnswerKeyCheck.Result(objects, bytes, expected, differences, problems, 0, 0, List.copyOf(first));
    }

    private void difference(String what) {
        differences++;
        if (first.size() < SHOWN) {
            first.add(what);
        }
    }

    /** Key rows below {@code address} were not found. */
    private void missingBelow(long address) {
        while (next != null && Long.compareUnsigned(next[0], address) < 0) {
            difference(String.format("missing: 0x%x (MethodTable 0x%x, %d bytes) is in the answer key, %s did not find it", next[0], next[1], next[2], reader));
            expected++;
            next = readRow();
        }
    }

    /** The next row's address, MethodTable and size (as the mode reads them), or null at the end. */
    private long[] readRow() {
        try {
            while (true) {
                String line = key.readLine();
                if (line == null || line.isEmpty()) {
                    return null;
                }
                String[] t = line.split("\t", 7);
                if (t.length < 3 || !t[0].startsWith("0x") || !t[1].startsWith("0x")) {
                    throw new IOException(file + ": a row is not 'address mt size ...': " + line);
                }
                if (mode == Mode.HEAP_WALKER && (t.length < 6 || !t[5].equals("object"))) {
                    continue;
                }
                long size = Long.parseLong(t[2]);
                return new long[] {Long.parseUnsignedLong(t[0].substring(2), 16), Long.parseUnsignedLong(t[1].substring(2), 16),
                        mode == Mode.HEAP_WALKER ? (size + 7) & -8L : size};
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NumberFormatException e) {
            throw new UncheckedIOException(new IOException(file + ": " + e.getMessage()));
        }
    }

    @Override
    public void close() throws IOException {
        key.close();
    }
}
