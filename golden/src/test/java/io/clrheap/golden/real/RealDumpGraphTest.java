package io.clrheap.golden.real;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.walker.graph.GcRoots;
import io.clrheap.walker.graph.HeapGraph;
import io.clrheap.walker.graph.ObjectReferences;
import io.clrheap.walker.graph.ObjectSize;
import io.clrheap.walker.graph.Reachability;
import io.clrheap.walker.graph.Root;
import io.clrheap.walker.graph.RootPath;
import io.clrheap.walker.graph.RootScanner;
import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.report.HandleTableWalker;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.heap.WalkLimits;
import io.clrheap.walker.walk.WalkRules;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The graph of a real dump against the runtime's own: every object the runtime listed as live is reachable from the
 * roots the walker found plus the roots the runtime reported (its stack roots are not in a dump without unwinding);
 * {@code gcroot} of an object a handle keeps alive finds a path from a handle the runtime reported.
 */
class RealDumpGraphTest {

    static Stream<String> foldersWithRoots() {
        return RealDump.WALKABLE.stream().filter(name -> Files.isRegularFile(RealDump.root().resolve(name).resolve("roots.txt")));
    }

    private record Built(HeapGraph graph, List<Root> roots, List<Problem> problems) {
    }

    private static Built build(RealDump real) {
        List<Problem> problems = new ArrayList<>();
        HeapWalker walker = new HeapWalker(real.target.memory(), WalkRules.of(real.target.layout()), real.heap, WalkLimits.DEFAULT);
        HeapGraph graph = HeapGraph.build(walker, new ObjectReferences(real.target.memory(), real.target.layout()), real.heap.freeMethodTable(), problems::add);
        RootScanner scanner = new RootScanner(real.target.memory(), real.target.layout());
        List<Root> roots = scanner.roots(real.heap, new HandleTableWalker(real.target, real.heap.heaps().size()));
        problems.addAll(scanner.problems());
        return new Built(graph, roots, problems);
    }

    @ParameterizedTest
    @MethodSource("foldersWithRoots")
    void everyLiveObjectIsReachableFromOurRootsAndTheRuntimesStackRoots(String name) {
        RealDump real = RealDump.of(name);
        Built b = build(real);
        assertThat(b.problems()).as("no dangling reference, no bad descriptor").isEmpty();
        long[] runtimeRoots = real.lines("roots.txt").stream().map(l -> l.split("\\s+")).filter(f -> f.length == 5)
                .mapToLong(f -> Long.decode(f[4])).filter(a -> a != 0).toArray();
        BitSet live = Reachability.live(b.graph(), b.roots(), runtimeRoots);
        List<String> unreached = new ArrayList<>();
        for (RealDump.LiveObject o : real.liveObjects()) {
            int i = b.graph().indexOf(o.address());
            if (i < 0 || !live.get(i)) {
                unreached.add(String.format("0x%x %s", o.address(), o.type()));
            }
        }
        assertThat(unreached).as("%s: live objects not reached", name).isEmpty();
        // our own roots alone reach a part of it: the handles' share
        BitSet ours = Reachability.live(b.graph(), b.roots());
        assertThat(ours.cardinality()).isPositive().isLessThanOrEqualTo(live.cardinality());
    }

    @ParameterizedTest
    @MethodSource("foldersWithRoots")
    void gcrootOfAnObjectAHandleKeepsAliveEndsAtAHandleTheRuntimeReported(String name) {
        RealDump real = RealDump.of(name);
        Built b = build(real);
        Set<Long> runtimeHandles = new HashSet<>();
        List<Long> handleTargets = new ArrayList<>();
        real.lines("roots.txt").stream().map(l -> l.split("\\s+")).filter(f -> f.length == 5 && f[1].equals("Handle") && (Long.decode(f[2]) & 2) == 0)
                .forEach(f -> {
                    runtimeHandles.add(Long.decode(f[3]) & ~1L);
                    handleTargets.add(Long.decode(f[4]));
                });
        // an object one reference away from a strong handle's target
        long known = 0;
        for (long t : handleTargets) {
            int i = b.graph().indexOf(t);
            if (i >= 0 && b.graph().firstEdge(i + 1) > b.graph().firstEdge(i)) {
                known = b.graph().address(b.graph().target(b.graph().firstEdge(i)));
                break;
            }
        }
        assertThat(known).as("an object a handle keeps alive through a reference").isNotZero();
        List<RootPath> paths = GcRoots.paths(b.graph(), b.roots(), known, 100);
        assertThat(paths).isNotEmpty();
        RootPath first = paths.getFirst();
        assertThat(first.objects().getLast()).isEqualTo(known);
        assertThat(first.objects().getFirst()).isEqualTo(first.root().target());
        assertThat(paths).anyMatch(p -> runtimeHandles.contains(p.root().address()));
        ObjectSize size = ObjectSize.of(b.graph(), known);
        assertThat(size.objects()).isPositive();
        assertThat(size.bytes()).isGreaterThanOrEqualTo(b.graph().size(b.graph().indexOf(known)));
    }
}
