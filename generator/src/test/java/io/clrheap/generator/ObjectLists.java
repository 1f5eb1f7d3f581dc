package io.clrheap.generator;

import io.clrheap.emulator.truth.GroundTruth;
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

/** Objects as {@code 0x<address> 0x<mt> <size>} lines, from a walk or from the ground truth, for tests to compare. */
public final class ObjectLists {

    /** A walk's objects, and its problems (each line starting {@code problem:}) in the same list, so that a test sees both. */
    public static List<String> walked(Target target, DiscoveredHeap heap) {
        List<String> lines = new ArrayList<>();
        new HeapWalker(target.memory(), WalkRules.of(target.layout()), heap, WalkLimits.DEFAULT).walk(new ObjectVisitor() {
            @Override
            public void object(long address, long mt, long size, Region region) {
                lines.add(String.format("0x%x 0x%x %d", address, mt, size));
            }

            @Override
            public void problem(Problem p) {
                lines.add("problem: " + p.describe());
            }
        });
        return lines;
    }

    /** What the emulator placed, in address order. */
    public static List<String> placed(GroundTruth truth) {
        List<String> lines = new ArrayList<>();
        truth.forEachObject((address, mt, size, generation, heap, kind) -> lines.add(String.format("0x%x 0x%x %d", address, mt, size)));
        return lines;
    }

    private ObjectLists() {
    }
}
