package io.clrheap.golden.real;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.walker.graph.Root;
import io.clrheap.walker.graph.RootKind;
import io.clrheap.walker.graph.RootScanner;
import io.clrheap.walker.report.HandleTableWalker;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The roots the walker finds without the DAC are the runtime's: every handle root the runtime reported (the heap
 * snapshot's GCBulkRootEdge, {@code roots.txt}: kind Handle, the handle's address, the object) is a handle the walker
 * found with that target; every finalizer root is an object of the finalization queues' ready segments, and no more.
 */
class RealDumpRootsTest {

    static Stream<String> foldersWithRoots() {
        return RealDump.WALKABLE.stream().filter(name -> Files.isRegularFile(RealDump.root().resolve(name).resolve("roots.txt")));
    }

    private static List<Root> roots(RealDump real) {
        RootScanner scanner = new RootScanner(real.target.memory(), real.target.layout());
        List<Root> roots = scanner.roots(real.heap, new HandleTableWalker(real.target, real.heap.heaps().size()));
        assertThat(scanner.problems()).isEmpty();
        return roots;
    }

    @ParameterizedTest
    @MethodSource("foldersWithRoots")
    void everyHandleRootTheRuntimeReportedIsAHandleTheWalkerFound(String name) {
        RealDump real = RealDump.of(name);
        Set<String> ours = new HashSet<>();
        for (Root r : roots(real)) {
            if (r.kind() != RootKind.FINALIZER && r.kind() != RootKind.FINALIZABLE) {
                ours.add(String.format("0x%x 0x%x", r.address(), r.target()));
            }
        }
        List<String> runtime = real.lines("roots.txt").stream().map(l -> l.split("\\s+")).filter(f -> f[1].equals("Handle"))
                .map(f -> String.format("0x%x 0x%x", Long.decode(f[3]) & ~1L, Long.decode(f[4]))).toList();
        assertThat(runtime).as("the runtime's handle roots").isNotEmpty();
        assertThat(ours).containsAll(runtime);
    }

    /**
     * The runtime's finalizer roots (reported by the GC of its heap snapshot) are in the finalization queues the
     * walker reads, and every entry of those queues is an object of the heap. (At the dump, taken after that GC, the
     * ready segments are empty and those objects sit registered in the gen0 segment: the finalizer thread ran in
     * between; so the kinds are not compared.)
     */
    @ParameterizedTest
    @MethodSource("foldersWithRoots")
    void theRuntimesFinalizerRootsAreInTheFinalizationQueues(String name) {
        RealDump real = RealDump.of(name);
        Set<Long> queued = new HashSet<>();
        for (Root r : roots(real)) {
            if (r.kind() == RootKind.FINALIZER || r.kind() == RootKind.FINALIZABLE) {
                queued.add(r.target());
                assertThat(real.walked).as("queue entry 0x%x of heap %d is an object", r.target(), r.heap()).containsKey(r.target());
            }
        }
        Set<Long> runtime = new HashSet<>();
        real.lines("roots.txt").stream().map(l -> l.split("\\s+")).filter(f -> f[1].equals("Finalizer"))
                .forEach(f -> runtime.add(Long.decode(f[4])));
        assertThat(queued).containsAll(runtime);
    }
}
