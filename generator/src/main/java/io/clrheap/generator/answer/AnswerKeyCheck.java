package io.clrheap.generator.answer;

import io.clrheap.walker.DumpSession;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.walk.ObjectVisitor;
import io.clrheap.walker.heap.Problem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Walks a dump and compares what the walker finds with an answer key's {@code objects.tsv}, both in address order
 * ({@link ObjectKeyComparison}): every object the key lists must be found with its MethodTable and size, and nothing
 * else.
 */
public final class AnswerKeyCheck {

    /**
     * The outcome.
     *
     * @param objects     objects the reader found
     * @param bytes       their bytes (unaligned sizes)
     * @param expected    objects the answer key lists
     * @param differences how many objects differ (missing, extra, or another MethodTable or size)
     * @param problems    problems the reader reported
     * @param first       the first differences and problems, one line each
     */
    public record Result(long objects, long bytes, long expected, long differences, long problems, List<String> first) {
        public boolean agrees() {
            return differences == 0 && problems == 0 && objects == expected;
        }
    }

    private AnswerKeyCheck() {
    }

    /** Walks {@code dump}'s heap and compares every object with {@code answerDir}'s {@code objects.tsv}. */
    public static Result check(DumpSession dump, Path answerDir) throws IOException {
        DiscoveredHeap heap = dump.heap();
        try (ObjectKeyComparison comparison = new ObjectKeyComparison(answerDir, ObjectKeyComparison.Mode.EXACT, "the walker")) {
            long[] problems = {0};
            try {
                dump.walk(new ObjectVisitor() {
                    @Override
                    public void object(long address, long mt, long size, Region region) {
                        comparison.object(address, mt, size);
                    }

                    @Override
                    public void problem(Problem p) {
                        problems[0]++;
                        comparison.note("walker problem: " + p.describe());
                    }
                });
                return comparison.finish(problems[0] + heap.problems().size());
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        }
    }
}
