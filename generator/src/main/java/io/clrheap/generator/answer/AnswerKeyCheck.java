package io.clrheap.generator.answer;

import io.clrheap.walker.discovery.DiscoveredHeap;
import io.clrheap.walker.discovery.Region;
import io.clrheap.walker.target.Target;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.walk.ObjectVisitor;
import io.clrheap.walker.walk.Problem;
import io.clrheap.walker.walk.WalkLimits;
import io.clrheap.walker.walk.WalkRules;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Walks a dump and compares what the walker finds with an answer key's {@code objects.tsv}, both in address order,
 * in one pass and in constant memory: every object the key lists must be found with its MethodTable and size, and
 * nothing else. Keeps the first differences to show.
 */
public final class AnswerKeyCheck {

    /** Differences kept for the report; the counts go on. */
    private static final int SHOWN = 10;

    /**
     * The outcome.
     *
     * @param objects     objects the walker found
     * @param bytes       their bytes (unaligned sizes)
     * @param expected    objects the answer key lists
     * @param differences how many objects differ (missing, extra, or another MethodTable or size)
     * @param problems    problems the walker reported
     * @param first       the first differences and problems, one line each
     */
    public record Result(long objects, long bytes, long expected, long differences, long problems, List<String> first) {
        public boolean agrees() {
            return differences == 0 && problems == 0 && objects == expected;
        }
    }

    private AnswerKeyCheck() {
    }

    public static Result check(Target target, DiscoveredHeap heap, Path answerDir) throws IOException {
        Path objectsFile = answerDir.resolve("objects.tsv");
        try (BufferedReader key = Files.newBufferedReader(objectsFile, StandardCharsets.UTF_8)) {
            String header = key.readLine();
            if (header == null || !header.startsWith("address\tmt\tsize")) {
                throw new IOException(objectsFile + ": not an answer key (its first line is not the objects.tsv header)");
            }
            var state = new Object() {
                long objects;
                long bytes;
                long expected;
                long differences;
                long problems;
                final List<String> first = new ArrayList<>();
                long[] next = readRow(key, objectsFile);

                void difference(String what) {
                    differences++;
                    if (first.size() < SHOWN) {
                        first.add(what);
                    }
                }

                /** Key rows below {@code address} were not found. */
                void missingBelow(long address) {
                    while (next != null && Long.compareUnsigned(next[0], address) < 0) {
                        difference(String.format("missing: 0x%x (MethodTable 0x%x, %d bytes) is in the answer key, the walker did not find it", next[0], next[1], next[2]));
                        expected++;
                        next = readRow(key, objectsFile);
                    }
                }
            };
            try {
                new HeapWalker(target.memory(), WalkRules.of(target.layout()), heap, WalkLimits.DEFAULT).walk(new ObjectVisitor() {
                    @Override
                    public void object(long address, long mt, long size, Region region) {
                        state.objects++;
                        state.bytes += size;
                        state.missingBelow(address);
                        long[] row = state.next;
                        if (row == null || row[0] != address) {
                            state.difference(String.format("extra: the walker found 0x%x (MethodTable 0x%x, %d bytes), the answer key has no object there", address, mt, size));
                            return;
                        }
                        state.expected++;
                        if (row[1] != mt || row[2] != size) {
                            state.difference(String.format("wrong: 0x%x is MethodTable 0x%x, %d bytes in the answer key; the walker says 0x%x, %d bytes", address, row[1], row[2], mt, size));
                        }
                        state.next = readRow(key, objectsFile);
                    }

                    @Override
                    public void problem(Problem p) {
                        state.problems++;
                        if (state.first.size() < SHOWN) {
                            state.first.add("walker problem: " + p.describe());
                        }
                    }
                });
                state.missingBelow(-1L); // the rest of the key: every address is below 2^64 - 1, unsigned
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            return new Result(state.objects, state.bytes, state.expected, state.differences, state.problems + heap.problems().size(),
                    List.copyOf(state.first));
        }
    }

    /** The next row's address, MethodTable and size, or null at the end. */
    private static long[] readRow(BufferedReader key, Path file) {
        try {
            String line = key.readLine();
            if (line == null || line.isEmpty()) {
                return null;
            }
            String[] t = line.split("\t", 4);
            if (t.length < 3 || !t[0].startsWith("0x") || !t[1].startsWith("0x")) {
                throw new IOException(file + ": a row is not 'address mt size ...': " + line);
            }
            return new long[] {Long.parseUnsignedLong(t[0].substring(2), 16), Long.parseUnsignedLong(t[1].substring(2), 16), Long.parseLong(t[2])};
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NumberFormatException e) {
            throw new UncheckedIOException(new IOException(file + ": " + e.getMessage()));
        }
    }
}
