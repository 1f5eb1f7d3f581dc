package io.clrheap.emulator.process;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The bookkeeping layout against the addresses measured in the real dumps (golden/real; docs/reference/clr-layouts.md). */
class GcBookkeepingTest {

    @Test
    void net8ServerLaysOutItsBookkeepingAsTheRealDump() {
        // net8-svr: g_lowest_address 0x7f9298000000, g_highest_address 0x7fd298000000, heap_segment 0xb8
        GcBookkeeping b = GcBookkeeping.of(0x7f9298000000L, 0x7fd298000000L, 0xb8, 22);
        assertThat(b.start()).isEqualTo(0x7f920344f000L);             // *GcDacVars.bookkeeping_start
        assertThat(b.size()).isEqualTo(0x94bb1000L);                  // card_table_info.size
        assertThat(b.brickTable()).isEqualTo(0x7f920b44f040L);
        assertThat(b.cardBundleTable()).isEqualTo(0x7f921344f040L);
        assertThat(b.segMappingTable()).isEqualTo(0x7f921747f040L);   // the first POH region's heap_segment
        assertThat(b.markArray()).isEqualTo(0x7f9218000000L);
        assertThat(b.translatedCardTable()).isEqualTo(0x7f8210f1f040L); // g_card_table
        assertThat(b.base()).isEqualTo(0x7f90a8827b40L);
        assertThat(b.entry(0x7f929f800000L)).isEqualTo(0x7f92174805d0L); // heap 1's LOH region
        assertThat(b.entry(0x7f92a1800000L)).isEqualTo(0x7f9217480b90L); // heap 0's ephemeral region
        assertThat(b.start() + b.size()).isEqualTo(b.lowest());
    }

    @Test
    void net9WorkstationHasTheSmallerHeapSegment() {
        GcBookkeeping b = GcBookkeeping.of(0x7ec780000000L, 0x7f0780000000L, 0xa8, 22);
        assertThat(b.start()).isEqualTo(0x7ec6eb54f000L);
        assertThat(b.size()).isEqualTo(0x94ab1000L);
        assertThat(b.segMappingTable()).isEqualTo(0x7ec6ff57f040L);
        assertThat(b.entry(0x7ec782c00000L)).isEqualTo(0x7ec6ff57f778L); // the LOH region
        assertThat(b.translatedCardTable()).isEqualTo(0x7eb71264f040L);
        assertThat(b.markArray()).isEqualTo(0x7ec700000000L);
    }

    @Test
    void aRangeOfOtherSizeGivesTheRealOffsets() {
        // net10-small: a 47 GiB range; the real area starts 0x31e000 lower (g_lowest_address is rounded up to a region)
        GcBookkeeping b = GcBookkeeping.of(0x7fc28b000000L, 0x7fce50000000L, 0xa8, 22);
        assertThat(b.size()).isEqualTo(0x1b571000L);
        assertThat(b.brickTable() - b.start()).isEqualTo(0x178a040L);
        assertThat(b.cardBundleTable() - b.start()).isEqualTo(0x2f14040L);
        assertThat(b.segMappingTable() - b.start()).isEqualTo(0x3ae1d80L);
        assertThat(b.markArray() - b.start()).isEqualTo(0x3cd1000L);
        assertThat(b.entry(0x7fc28dc00000L) - b.segMappingTable()).isEqualTo(0x7fc2732534b8L - 0x7fc273252d80L);
    }
}
