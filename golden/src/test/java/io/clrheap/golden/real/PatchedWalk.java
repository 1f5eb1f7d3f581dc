package io.clrheap.golden.real;

import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.ProblemKind;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.WalkLimits;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.walk.ObjectVisitor;
import io.clrheap.walker.walk.WalkRules;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A discovery and walk of a (patched) real dump: the heap found, every object address walked, and every problem
 * discovery and the walk reported.
 */
record PatchedWalk(DiscoveredHeap heap, Set<Long> objects, List<Problem> problems) {

    static PatchedWalk of(Target target) {
        DiscoveredHeap heap = new HeapDiscovery(target).discover();
        Set<Long> objects = new HashSet<>();
        List<Problem> problems = new ArrayList<>(heap.problems());
        new HeapWalker(target.memory(), WalkRules.of(target.layout()), heap, WalkLimits.DEFAULT).walk(new ObjectVisitor() {
            @Override
            public void object(long address, long mt, long size, Region region) {
                objects.add(address);
            }

            @Override
            public void problem(Problem p) {
                problems.add(p);
            }
        });
        return new PatchedWalk(heap, objects, problems);
    }

    /** Whether a problem of {@code kind} was reported at {@code address}. */
    boolean reports(ProblemKind kind, long address) {
        return problems.stream().anyMatch(p -> p.kind() == kind && p.address() == address);
    }
}
