package io.clrheap.emulator.gc;

import java.util.ArrayList;
import java.util.List;

/** One heap: its regions per generation, and what discovery reads of it. */
public final class Heap {
    public final int index;
    final List<List<RegionState>> generations = new ArrayList<>();
    long gcHeap;
    public long gcHeapObject;
    long generationTable;
    long allocAllocated;
    long ephemeralSegment;
    long finalizeQueue;
    /** Its small-object segments under a segments GC, in gen2's list order: the ephemeral one last. */
    final List<Segment> sohSegments = new ArrayList<>();
    /** What its finalization queue holds (ReferenceWriter fills it, GcStructureWriter writes it). */
    final FinalizationQueue finalization = new FinalizationQueue();

    Heap(int index) {
        this.index = index;
        for (int g = 0; g < 5; g++) {
            generations.add(new ArrayList<>());
        }
    }

    /** The gen0 region allocation contexts come from (the ephemeral region). */
    RegionState gen0() {
        List<RegionState> gen0 = generations.get(0);
        return gen0.get(gen0.size() - 1);
    }

    /** The small-object segment gen0 and gen1 are in (segments GC). */
    Segment ephemeral() {
        return sohSegments.get(sohSegments.size() - 1);
    }

    public long generationTable() {
        return generationTable;
    }

    public long allocAllocated() {
        return allocAllocated;
    }

    public long ephemeralSegment() {
        return ephemeralSegment;
    }

    public long finalizeQueue() {
        return finalizeQueue;
    }
}
