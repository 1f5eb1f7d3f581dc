package io.clrheap.golden.fuzz;

import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetException;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.walk.ObjectVisitor;
import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.ProblemKind;
import io.clrheap.walker.heap.WalkLimits;
import io.clrheap.walker.walk.WalkRules;
import java.util.EnumSet;
import java.util.Set;

/**
 * What {@code clrheap walk --verify} does once a dump has opened: find the runtime (a {@link TargetException} is a
 * documented refusal), discover the heap and walk every region. Discovery and the walk report problems and never
 * throw; the kinds reported are the outcome's summary (the coverage signal).
 */
final class WalkAfterOpen {

    /** Loaded once: the built-in profiles are the same for every input. */
    static final ProfileLoader PROFILES = ProfileLoader.builtIn();

    interface Opener {
        Target open() throws TargetException;
    }

    private WalkAfterOpen() {
    }

    static String walk(Opener opener) {
        Target target;
        try {
            target = opener.open();
        } catch (TargetException e) {
            return "target refused (" + e.kind() + "): " + FuzzRunner.blank(String.valueOf(e.getMessage()));
        }
        DiscoveredHeap heap = new HeapDiscovery(target).discover();
        Set<ProblemKind> kinds = EnumSet.noneOf(ProblemKind.class);
        heap.problems().forEach(p -> kinds.add(p.kind()));
        long[] objects = {0};
        new HeapWalker(target.memory(), WalkRules.of(target.layout()), heap, WalkLimits.DEFAULT).walk(new ObjectVisitor() {
            @Override
            public void object(long address, long methodTable, long size, Region region) {
                objects[0]++;
            }

            @Override
            public void problem(Problem problem) {
                kinds.add(problem.kind());
            }
        });
        return "walked, problems " + kinds;
    }
}
