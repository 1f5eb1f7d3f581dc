package io.clrheap.golden.real;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.walker.heap.ProblemKind;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.heap.SubHeap;
import io.clrheap.walker.runtime.TargetOpener;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Damaged heap metadata in a real .NET 8 server dump (net8-svr, 2 heaps, 9,470 objects): each damage is reported as
 * its own kind at the address of the damaged word, and what the broken lists hide is recovered through the region map,
 * so the walk finds every object of the undamaged dump. No damage passes as a clean walk.
 */
class DamagedHeapMetadataTest {

    private final RealDump real = RealDump.of("net8-svr");
    private final PatchedMemory memory = new PatchedMemory(real.core);
    private final RuntimeLayout layout = real.target.layout();

    private PatchedWalk walk() throws Exception {
        return PatchedWalk.of(new TargetOpener(ProfileLoader.builtIn()).open(memory, real.core.mappedFiles(), Optional.empty()));
    }

    private SubHeap heap(int index) {
        return real.heap.heaps().get(index);
    }

    /** Where g_heaps lies: heap 0's gc_heap is its first element. */
    private long gHeapsArray() {
        long vars = real.target.globalPointer("g_gcDacGlobals");
        return memory.readPointer(memory.readPointer(vars + layout.offset("GcDacVars", "g_heaps")));
    }

    private long startSegmentOf(SubHeap heap, int generation) {
        long stride = memory.readLong(real.target.globalPointer("g_gcDacGlobals") + layout.offset("GcDacVars", "generation_size"));
        return heap.generationTable() + generation * stride + layout.offset("generation", "start_segment");
    }

    @Test
    void theUndamagedDumpWalksCleanly() throws Exception {
        PatchedWalk w = walk();
        assertThat(w.problems()).isEmpty();
        assertThat(w.objects()).hasSize(real.walked.size()).hasSize(9_470);
    }

    @Test
    void aHeapListedTwiceInGHeapsIsReportedAndTheHiddenHeapIsRecoveredFromTheRegionMap() throws Exception {
        long array = gHeapsArray();
        memory.putLong(array + 8, heap(0).gcHeap());
        PatchedWalk w = walk();
        assertThat(w.reports(ProblemKind.DUPLICATE_HEAP, array + 8)).as("%s", w.problems()).isTrue();
        assertThat(w.problems()).anyMatch(p -> p.kind() == ProblemKind.RECOVERED_REGION);
        assertThat(w.heap().heaps()).extracting(SubHeap::gcHeap).containsExactly(heap(0).gcHeap(), heap(1).gcHeap());
        assertThat(w.objects()).containsExactlyInAnyOrderElementsOf(real.walked.keySet());
    }

    @Test
    void gHeapsPointingAtItselfIsNeverACleanWalk() throws Exception {
        long array = gHeapsArray();
        memory.putLong(array, array).putLong(array + 8, array);
        PatchedWalk w = walk();
        assertThat(w.problems()).isNotEmpty();
        assertThat(w.reports(ProblemKind.DUPLICATE_HEAP, array + 8)).as("%s", w.problems()).isTrue();
    }

    @Test
    void aGarbageEphemeralHeapSegmentIsReportedAndTheRegionHoldingAllocAllocatedTakesItsPlace() throws Exception {
        SubHeap h = heap(1);
        long field = h.gcHeap() + layout.offset("gc_heap", "ephemeral_heap_segment");
        memory.putLong(field, 0x1234_5678_9abc_def0L);
        PatchedWalk w = walk();
        assertThat(w.reports(ProblemKind.EPHEMERAL_NOT_LISTED, field)).as("%s", w.problems()).isTrue();
        assertThat(w.objects()).containsExactlyInAnyOrderElementsOf(real.walked.keySet());
    }

    @Test
    void anEmptiedGen2ListIsReportedAndItsRegionIsRecovered() throws Exception {
        SubHeap h = heap(1);
        long start = startSegmentOf(h, 2);
        Region gen2 = h.regions().stream().filter(r -> r.kind() == SegmentKind.GEN2).findFirst().orElseThrow();
        memory.putLong(start, 0);
        PatchedWalk w = walk();
        assertThat(w.reports(ProblemKind.MISSING_GENERATION_START, start)).as("%s", w.problems()).isTrue();
        assertThat(w.reports(ProblemKind.RECOVERED_REGION, gen2.descriptor())).as("%s", w.problems()).isTrue();
        assertThat(w.heap().heaps().get(1).regions()).anyMatch(r -> r.descriptor() == gen2.descriptor() && r.kind() == SegmentKind.GEN2);
        assertThat(w.objects()).containsExactlyInAnyOrderElementsOf(real.walked.keySet());
    }

    @Test
    void aHeapWhoseListsAreAllEmptyIsReportedAndEveryRegionOfItIsRecovered() throws Exception {
        SubHeap h = heap(1);
        for (int gen = 0; gen < 5; gen++) {
            memory.putLong(startSegmentOf(h, gen), 0);
        }
        PatchedWalk w = walk();
        assertThat(w.reports(ProblemKind.HEAP_WITHOUT_REGIONS, h.gcHeap())).as("%s", w.problems()).isTrue();
        assertThat(w.problems().stream().filter(p -> p.kind() == ProblemKind.RECOVERED_REGION)).hasSize(h.regions().size());
        assertThat(w.heap().heaps().get(1).regions()).anyMatch(Region::ephemeral);
        assertThat(w.objects()).containsExactlyInAnyOrderElementsOf(real.walked.keySet());
    }

    @Test
    void aRegionInTwoListsIsWalkedOnceAndReportedAsListedTwiceAndForeign() throws Exception {
        Region heap0Gen1 = heap(0).regions().stream().filter(r -> r.kind() == SegmentKind.GEN1).findFirst().orElseThrow();
        Region heap1Gen2 = heap(1).regions().stream().filter(r -> r.kind() == SegmentKind.GEN2).findFirst().orElseThrow();
        memory.putLong(heap0Gen1.descriptor() + layout.offset("heap_segment", "next"), heap1Gen2.descriptor());
        PatchedWalk w = walk();
        assertThat(w.reports(ProblemKind.FOREIGN_REGION, heap1Gen2.descriptor())).as("%s", w.problems()).isTrue();
        assertThat(w.reports(ProblemKind.REGION_LISTED_TWICE, heap1Gen2.descriptor())).as("%s", w.problems()).isTrue();
        assertThat(w.objects()).containsExactlyInAnyOrderElementsOf(real.walked.keySet());
    }
}
