package io.clrheap.generator.answer;

import io.clrheap.walker.metadata.TypeNameLookup;
import io.clrheap.walker.report.TypeNames;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 * else; and every type of the key must be named so by the dump's metadata.
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
     * @param names       types the dump's metadata names otherwise than the key (or cannot name); 0 when not checked
     * @param graph       references and live objects that differ from the key's references.tsv and live.tsv (0 when
     *                    the key has neither)
     * @param first       the first differences and problems, one line each
     */
    public record Result(long objects, long bytes, long expected, long differences, long problems, long names, long graph, List<String> first) {
        public boolean agrees() {
            return differences == 0 && problems == 0 && names == 0 && graph == 0 && objects == expected;
        }

        /** This result with the type-name check's differences added. */
        Result withNames(long wrongNames, List<String> lines) {
            return new Result(objects, bytes, expected, differences, problems, wrongNames, graph, more(lines));
        }

        /** This result with the object graph check's differences added. */
        Result withGraph(long wrong, List<String> lines) {
            return new Result(objects, bytes, expected, differences, problems, names, wrong, more(lines));
        }

        private List<String> more(List<String> lines) {
            List<String> all = new ArrayList<>(first);
            lines.stream().limit(Math.max(0, FIRST_LINES - all.size())).forEach(all::add);
            return List.copyOf(all);
        }
    }

    /** The most difference lines a result keeps. */
    static final int FIRST_LINES = 20;
    /** A row of dumpheap-stat.txt: MethodTable (hex), count, total size, name. */
    private static final Pattern STAT_ROW = Pattern.compile("^\\s*([0-9a-f]{1,16})\\s+[0-9,]+\\s+[0-9,]+\\s(.+)$");

    private AnswerKeyCheck() {
    }

    /** Adds to {@code result} every type of the key's dumpheap-stat.txt the dump's metadata names otherwise (or not at all). */
    private static Result checkNames(DumpSession dump, Path answerDir, Result result) throws IOException {
        Path stat = answerDir.resolve("dumpheap-stat.txt");
        if (!Files.isRegularFile(stat)) {
            return result;
        }
        TypeNames names = dump.metadataTypeNames();
        long free = dump.heap().freeMethodTable();
        long wrong = 0;
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(stat, StandardCharsets.UTF_8)) {
            Matcher row = STAT_ROW.matcher(line);
            if (!row.matches() || line.startsWith("Total ")) {
                continue;
            }
            long mt = Long.parseUnsignedLong(row.group(1), 16);
            String got = names.display(mt, free);
            if (!got.equals(row.group(2))) {
                wrong++;
                if (lines.size() < FIRST_LINES) {
                    lines.add(String.format("type name of MethodTable 0x%x: the key says %s, the dump's metadata %s%s", mt, row.group(2), got,
                            names.metadata().map(m -> m.lookup(mt) instanceof TypeNameLookup.Unnamed u ? " (" + u.reason() + ")" : "").orElse("")));
                }
            }
        }
        return result.withNames(wrong, lines);
    }

    /**
     * Walks {@code dump}'s heap and compares every object with {@code answerDir}'s {@code objects.tsv}; then names every
     * type of the key's {@code dumpheap-stat.txt} from the dump's metadata alone (not the names the file carries) and
     * compares the names.
     */
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
                return GraphKeyCheck.check(dump, answerDir, checkNames(dump, answerDir, comparison.finish(problems[0] + heap.problems().size())));
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        }
    }
}
