package io.clrheap.golden.real;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.walker.graph.ObjectReferences;
import io.clrheap.walker.heap.Problem;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every edge the runtime reported (the heap snapshot's GCBulkEdge events, {@code refs.txt}) is what the walker reads
 * from the objects' GC descriptors: for every object the runtime lists, the same targets in the same order — and the
 * descriptors of every type met are well formed.
 */
class RealDumpReferencesTest {

    static Stream<String> foldersWithEdges() {
        return RealDump.WALKABLE.stream().filter(name -> Files.isRegularFile(RealDump.root().resolve(name).resolve("refs.txt")));
    }

    @ParameterizedTest
    @MethodSource("foldersWithEdges")
    void everyObjectsReferencesAreTheRuntimesEdgesInFieldOrder(String name) throws IOException {
        RealDump real = RealDump.of(name);
        ObjectReferences references = new ObjectReferences(real.target.memory(), real.target.layout());
        Map<Long, List<Long>> ours = new HashMap<>();
        List<Problem> problems = new ArrayList<>();
        for (RealDump.WalkedObject o : real.walked.values()) {
            if (o.mt() == real.heap.freeMethodTable()) {
                continue;
            }
            Problem p = references.references(o.address(), o.mt(), o.size(), o.region(),
                    (from, offset, to) -> ours.computeIfAbsent(from, k -> new ArrayList<>()).add(to));
            if (p != null) {
                problems.add(p);
            }
        }
        Map<Long, List<Long>> runtime = runtimeEdges(real);
        assertThat(runtime).as("the runtime's edges").hasSizeGreaterThan(1000);
        List<String> wrong = new ArrayList<>();
        runtime.forEach((from, targets) -> {
            if (!targets.equals(ours.get(from))) {
                wrong.add(String.format("0x%x: runtime %s, walker %s", from, hex(targets), hex(ours.get(from))));
            }
        });
        assertThat(wrong).as("%s: objects whose references differ from the runtime's", name).isEmpty();
        assertThat(problems).isEmpty();
        // the walker's graph is larger: the runtime lists only the objects its snapshot found live
        assertThat(ours.keySet()).containsAll(runtime.keySet());
    }

    private static Map<Long, List<Long>> runtimeEdges(RealDump real) {
        Map<Long, List<Long>> edges = new HashMap<>();
        for (String line : real.lines("refs.txt")) {
            int colon = line.indexOf(':');
            List<Long> targets = new ArrayList<>();
            for (String t : line.substring(colon + 1).trim().split("\\s+")) {
                if (!t.isEmpty()) {
                    targets.add(Long.parseUnsignedLong(t.substring(2), 16));
                }
            }
            edges.put(Long.parseUnsignedLong(line.substring(2, colon), 16), targets);
        }
        return edges;
    }

    private static List<String> hex(List<Long> values) {
        return values == null ? null : values.stream().map(v -> "0x" + Long.toHexString(v)).toList();
    }
}
