package io.clrheap.emulator.truth;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.InvariantChecker;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.Scenarios;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The object graph the emulator writes: references at object starts, roots of every kind, determinism, reachability. */
class ObjectGraphTest {

    private static final EmulatedRuntime GRAPH = new RuntimeBuilder().build(Scenarios.named("object-graph").orElseThrow()
            .on(RuntimeVersion.NET9, GcFlavor.SERVER));

    @Test
    void everyReferencePointsAtAnObjectStart() {
        Set<Long> objects = new HashSet<>();
        GRAPH.groundTruth().forEachObject((address, mt, size, generation, heap, kind) -> {
            if (kind == GroundTruth.Kind.OBJECT) {
                objects.add(address);
            }
        });
        long[] references = {0};
        GRAPH.objectGraph().forEachReference((from, offset, to) -> {
            assertThat(objects).as("0x%x +%d -> 0x%x", from, offset, to).contains(to);
            references[0]++;
        });
        assertThat(references[0]).isPositive();
        assertThat(InvariantChecker.check(GRAPH)).isEmpty();
    }

    @Test
    void theSameScenarioAndSeedGiveTheSameGraph() {
        EmulatedRuntime again = new RuntimeBuilder().build(GRAPH.scenario());
        assertThat(lines(again)).isEqualTo(lines(GRAPH));
        assertThat(again.objectGraph().roots()).isEqualTo(GRAPH.objectGraph().roots());
        assertThat(again.objectGraph().live()).isEqualTo(GRAPH.objectGraph().live());
    }

    @Test
    void theGraphHasCyclesCrossHeapReferencesAndEveryRootKind() {
        Map<Long, Integer> heapOf = new HashMap<>();
        GRAPH.groundTruth().forEachObject((address, mt, size, generation, heap, kind) -> heapOf.put(address, heap));
        Map<Long, List<Long>> edges = new HashMap<>();
        boolean[] crossHeap = {false};
        GRAPH.objectGraph().forEachReference((from, offset, to) -> {
            edges.computeIfAbsent(from, k -> new ArrayList<>()).add(to);
            crossHeap[0] |= !heapOf.get(from).equals(heapOf.get(to));
        });
        assertThat(crossHeap[0]).isTrue();
        assertThat(hasCycle(edges)).isTrue();
        Set<String> kinds = new HashSet<>();
        GRAPH.objectGraph().roots().forEach(r -> kinds.add(r.kind()));
        assertThat(kinds).contains("strong", "pinned", "weak-short", "weak-long", "dependent", "finalizer", "finalizable");
        long[] live = GRAPH.objectGraph().live();
        assertThat(live.length).isPositive();
        for (int i = 1; i < live.length; i++) {
            assertThat(Long.compareUnsigned(live[i - 1], live[i])).isNegative();
        }
    }

    private static boolean hasCycle(Map<Long, List<Long>> edges) {
        Map<Long, Integer> state = new HashMap<>(); // 1 on the path, 2 done
        for (Long start : edges.keySet()) {
            if (state.containsKey(start)) {
                continue;
            }
            List<long[]> stack = new ArrayList<>();
            stack.add(new long[] {start, 0});
            state.put(start, 1);
            while (!stack.isEmpty()) {
                long[] top = stack.get(stack.size() - 1);
                List<Long> next = edges.getOrDefault(top[0], List.of());
                if (top[1] < next.size()) {
                    long to = next.get((int) top[1]++);
                    Integer s = state.get(to);
                    if (s == null) {
                        state.put(to, 1);
                        stack.add(new long[] {to, 0});
                    } else if (s == 1) {
                        return true;
                    }
                } else {
                    state.put(top[0], 2);
                    stack.remove(stack.size() - 1);
                }
            }
        }
        return false;
    }

    private static List<String> lines(EmulatedRuntime runtime) {
        List<String> out = new ArrayList<>();
        runtime.objectGraph().forEachReference((from, offset, to) -> out.add(from + " " + offset + " " + to));
        return out;
    }
}
