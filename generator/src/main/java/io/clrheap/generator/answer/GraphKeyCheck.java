package io.clrheap.generator.answer;

import io.clrheap.walker.DumpSession;
import io.clrheap.walker.graph.HeapGraph;
import io.clrheap.walker.graph.ObjectGraph;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The answer key's object graph against the dump's: every reference the walker reads (object, field offset, target;
 * in address and field order) equals {@code references.tsv} line for line, and the objects the walker finds live
 * from the dump's roots equal {@code live.tsv}. Both files are streamed; a key without them is not checked. Stack roots:
 * see {@link #live}.
 */
final class GraphKeyCheck {

    private GraphKeyCheck() {
    }

    static AnswerKeyCheck.Result check(DumpSession dump, Path answerDir, AnswerKeyCheck.Result result) throws IOException {
        Path references = answerDir.resolve("references.tsv");
        Path liveFile = answerDir.resolve("live.tsv");
        if (!Files.isRegularFile(references) && !Files.isRegularFile(liveFile)) {
            return result;
        }
        ObjectGraph graph = dump.graph();
        HeapGraph g = graph.graph();
        long wrong = graph.problems().size();
        List<String> lines = new ArrayList<>();
        graph.problems().stream().limit(AnswerKeyCheck.FIRST_LINES).forEach(p -> lines.add("graph problem: " + p.describe()));
        if (Files.isRegularFile(references)) {
            try (BufferedReader in = Files.newBufferedReader(references, StandardCharsets.UTF_8)) {
                in.readLine(); // header
                for (int o = 0; o < g.objects(); o++) {
                    for (int e = g.firstEdge(o); e < g.firstEdge(o + 1); e++) {
                        String ours = String.format("0x%x\t%d\t0x%x", g.address(o), g.offset(e), g.address(g.target(e)));
                        String key = in.readLine();
                        if (!ours.equals(key)) {
                            wrong++;
                            add(lines, "reference: the walker reads " + ours.replace('\t', ' ') + ", the key says " + (key == null ? "nothing more" : key.replace('\t', ' ')));
                        }
                    }
                }
                for (String key = in.readLine(); key != null; key = in.readLine()) {
                    wrong++;
                    add(lines, "reference missing: " + key.replace('\t', ' '));
                }
            }
        }
        if (Files.isRegularFile(liveFile)) {
            BitSet live = graph.live();
            try (BufferedReader in = Files.newBufferedReader(liveFile, StandardCharsets.UTF_8)) {
                in.readLine(); // header
                for (int o = live.nextSetBit(0); o >= 0; o = live.nextSetBit(o + 1)) {
                    String ours = "0x" + Long.toHexString(g.address(o));
                    String key = in.readLine();
                    if (!ours.equals(key)) {
                        wrong++;
                        add(lines, "live: the walker finds " + ours + " live, the key lists " + (key == null ? "nothing more" : key));
                    }
                }
                for (String key = in.readLine(); key != null; key = in.readLine()) {
                    wrong++;
                    add(lines, "live object not found live: " + key);
                }
            }
        }
        return result.withGraph(wrong, lines);
    }

    private static void add(List<String> lines, String line) {
        if (lines.size() < AnswerKeyCheck.FIRST_LINES) {
            lines.add(line);
        }
    }
}
