package io.clrheap.walker.sos;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.layout.GcFlavor;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.heap.SubHeap;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * eeheap -gc of a segments GC (a standalone libclrgc.so) as SOS prints one: the generations' starts, then each segment
 * once, its ephemeral segment whole though discovery splits it at gen1's and gen0's starts. Figures of the real 9.0.7
 * workstation dump of docs/reference/discovery.md section 14.
 */
class SosEeHeapSegmentsTest {

    private static final long SEGMENT = 0x7fa524000000L;

    private static DiscoveredHeap heap() {
        List<Region> regions = List.of(
                new Region(0, SegmentKind.GEN2, SEGMENT, 0x7fa524001000L, 0x7fa524024b58L, 0x7fa524128048L, 0x7fa524132000L, 0x7fa534000000L, 0, false),
                new Region(0, SegmentKind.GEN1, SEGMENT, 0x7fa524024b58L, 0x7fa524024b70L, 0x7fa524128048L, 0x7fa524132000L, 0x7fa534000000L, 0, false),
                new Region(0, SegmentKind.GEN0, SEGMENT, 0x7fa524024b70L, 0x7fa524128048L, 0x7fa524128048L, 0x7fa524132000L, 0x7fa534000000L, 0, true),
                new Region(0, SegmentKind.LOH, 0x7fa534000000L, 0x7fa534001000L, 0x7fa53412f5a0L, 0x7fa53412f5a0L, 0x7fa534130000L, 0x7fa53c000000L, 8, false));
        SubHeap sub = new SubHeap(0, 0, 0x7fa5db95c360L, 0x7fa524128048L, SEGMENT, 0, regions);
        return DiscoveredHeap.of(GcFlavor.WORKSTATION, List.of(sub), List.of(), 0, false, List.of());
    }

    private static final SosEeHeap.GenerationStarts STARTS = new SosEeHeap.GenerationStarts(
            new long[] {0x7fa524024b70L, 0x7fa524024b58L, 0x7fa524001000L, 0x7fa534001000L, 0x7fa53c001000L}, 0x7fa524100000L, 0x7fa524102000L);

    @Test
    void theGenerationsStartsComeBeforeOneRowPerSegment() {
        String text = SosEeHeap.of(heap(), false, h -> STARTS).text();
        assertThat(text).contains("""
                generation 0 starts at 7fa524024b70
                generation 1 starts at 7fa524024b58
                generation 2 starts at 7fa524001000
                ephemeral segment allocation context: (0x7fa524100000, 0x140347251367936)
                Small object heap
                """, """
                00007fa524000000 00007fa524001000 00007fa524128048 00007fa524132000 0x127048 (1208392) 0x131020 (1249312)
                Large object heap starts at 7fa534001000
                """).doesNotContain("generation 0:");
    }

    @Test
    void theEphemeralSegmentsCommittedMemoryCountsOnce() {
        SosEeHeap segments = SosEeHeap.of(heap(), false, h -> STARTS);
        assertThat(segments.committedTotal()).isEqualTo(0x131020 + 0x12f020);
        assertThat(segments.allocatedTotal()).isEqualTo(0x127048 + 0x12e5a0);
    }

    @Test
    void aRegionsHeapKeepsItsGenerationHeadings() {
        assertThat(SosEeHeap.of(heap(), false).text()).contains("generation 0:\n", "generation 1:\n", "generation 2:\n", "Large object heap\n")
                .doesNotContain("starts at");
    }
}
