package io.clrheap.golden.emulated;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.walk.ObjectVisitor;
import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.WalkLimits;
import io.clrheap.walker.walk.WalkRules;
import java.util.ArrayList;
import java.util.List;

/** Objects as comparable lines, {@code address mt size heap N generation}: what a walk found, and what the emulator placed. */
final class ObjectLines {

    private static final String[] GENERATIONS = {"gen0", "gen1", "gen2", "loh", "poh"};

    private ObjectLines() {
    }

    /** Walks {@code heap}; every problem the walk reports is added to {@code problems}. */
    static List<String> walked(Target target, DiscoveredHeap heap, List<String> problems) {
        return walked(new HeapWalker(target.memory(), WalkRules.of(target.layout()), heap, WalkLimits.DEFAULT), heap, problems);
    }

    /** Walks with {@code walker}; every problem the walk reports is added to {@code problems}. */
    static List<String> walked(HeapWalker walker, DiscoveredHeap heap, List<String> problems) {
        List<String> walked = new ArrayList<>();
        walker.walk(new ObjectVisitor() {
            @Override
            public void object(long address, long mt, long size, Region region) {
                walked.add(line(address, mt, size, region.heap(), region.kind().id()));
            }

            @Override
            public void problem(Problem p) {
                problems.add(p.describe());
            }
        });
        return walked;
    }

    /** Every object of the ground truth, in address order per region as placed. */
    static List<String> placed(EmulatedRuntime runtime) {
        List<String> placed = new ArrayList<>();
        runtime.groundTruth().forEachObject((address, mt, size, generation, heap, kind) ->
                placed.add(line(address, mt, size, heap, generation < 0 ? "frozen" : GENERATIONS[generation])));
        return placed;
    }

    private static String line(long address, long mt, long size, int heap, String generation) {
        return String.format("0x%x 0x%x %d heap %d %s", address, mt, size, heap, generation);
    }
}
