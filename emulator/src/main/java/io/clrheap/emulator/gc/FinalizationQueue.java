package io.clrheap.emulator.gc;

import java.util.ArrayList;
import java.util.List;

/**
 * What a heap's finalization queue ({@code CFinalize}) holds, segment by segment, before it is written: gc.cpp's
 * CFinalize splits m_Array by its fill pointers into one segment per generation, {@code gen_segment(gen) =
 * total_generation_count - gen - 1} (POH first, gen0 last), then CriticalFinalizerListSeg (total_generation_count)
 * and FinalizerListSeg (total_generation_count + 1), the objects ready for finalization (f-reachable), then the free
 * list (https://github.com/dotnet/runtime/blob/main/src/coreclr/gc/gcpriv.h class CFinalize;
 * docs/reference/clr-layouts.md, CFinalize; docs/reference/object-graph.md).
 */
final class FinalizationQueue {

    /** Generations (gen0, gen1, gen2, LOH, POH): total_generation_count. */
    static final int GENERATIONS = 5;
    /** CriticalFinalizerListSeg: f-reachable objects with critical finalizers (the emulator leaves it empty). */
    static final int CRITICAL_FINALIZER_LIST = GENERATIONS;
    /** FinalizerListSeg: the objects ready for finalization. */
    static final int FINALIZER_LIST = GENERATIONS + 1;

    /** Per segment (POH, LOH, gen2, gen1, gen0, critical, f-reachable), the objects in it. */
    final List<List<Long>> segments = new ArrayList<>();

    FinalizationQueue() {
        for (int i = 0; i <= FINALIZER_LIST; i++) {
            segments.add(new ArrayList<>());
        }
    }

    /** gc.cpp gen_segment: the segment of a generation (0-4). */
    static int genSegment(int generation) {
        return GENERATIONS - generation - 1;
    }

    /** Registers an object of a type with a finalizer, allocated in {@code generation}. */
    void register(int generation, long object) {
        segments.get(genSegment(generation)).add(object);
    }

    /** An object the last GC found unreachable: ready for finalization, a root until its finalizer has run. */
    void ready(long object) {
        segments.get(FINALIZER_LIST).add(object);
    }

    int size() {
        return segments.stream().mapToInt(List::size).sum();
    }
}
