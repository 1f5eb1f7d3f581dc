package io.clrheap.emulator.process;

import io.clrheap.layout.RuntimeLayout;

/**
 * The GC's bookkeeping area under regions, laid out as the real .NET 8/9/10 processes lay it out
 * (docs/reference/clr-layouts.md section 11a; gc.cpp get_card_table_element_layout):
 * one reservation starting at {@code bookkeeping_start} that holds, in this order, the {@code card_table_info} header
 * (0x40 bytes), the card table, the brick table, the card bundle table, the software write watch table, the
 * region-to-generation table, the region map ({@code seg_mapping_table}: one {@code heap_segment} per basic region of
 * {@code [g_lowest_address, g_highest_address)}, a region's descriptor being the entry of its first basic region) and,
 * page aligned, the mark array. It ends right below the GC range (at {@code g_lowest_address} when its size is a
 * multiple of the basic region size, as it is for 256 GiB).
 *
 * @param start     {@code bookkeeping_start}: the {@code card_table_info} header
 * @param size      {@code card_table_info.size}: the whole area, page aligned
 * @param lowest    {@code g_lowest_address}
 * @param highest   {@code g_highest_address}
 * @param entrySize {@code sizeof(heap_segment)}: the region map's stride
 * @param shift     log2 of the basic region size ({@code min_segment_size_shr})
 */
public record GcBookkeeping(long start, long size, long lowest, long highest, long entrySize, int shift) {

    /** sizeof(card_table_info) (GcDacVars.card_table_info_size). */
    public static final long HEADER = 0x40;
    private static final long PAGE = 0x1000;

    /** The bookkeeping of the GC range {@code [lowest, highest)}, ending at or below {@code lowest}. */
    public static GcBookkeeping of(long lowest, long highest, long entrySize, int shift) {
        long size = alignUp(segMappingOffset(highest - lowest, entrySize, shift) + ((highest - lowest) >>> shift) * entrySize, PAGE)
                + markArrayBytes(highest - lowest);
        return new GcBookkeeping((lowest - size) & -PAGE, size, lowest, highest, entrySize, shift);
    }

    /** The emulated process's: its GC range {@link ProcessLayout#GC_RESERVE}, its build's heap_segment and basic region size. */
    public static GcBookkeeping of(RuntimeLayout layout) {
        return of(ProcessLayout.GC_RESERVE, ProcessLayout.GC_RESERVE + ProcessLayout.GC_RESERVE_SIZE,
                layout.type("heap_segment").size().orElseThrow(), Long.numberOfTrailingZeros(layout.constant("region.basic_size")));
    }

    /** The card table (untranslated): right after the header. */
    public long cardTable() {
        return start + HEADER;
    }

    /** {@code g_card_table}: the card table translated so that card word {@code address >> 13} is at {@code g_card_table + 4 * that}. */
    public long translatedCardTable() {
        return cardTable() - (lowest >>> 13) * 4;
    }

    public long brickTable() {
        return cardTable() + cardTableBytes(highest - lowest);
    }

    public long cardBundleTable() {
        return brickTable() + brickTableBytes(highest - lowest);
    }

    /** The region map's entry of {@code g_lowest_address}: where its entries start. */
    public long segMappingTable() {
        return start + segMappingOffset(highest - lowest, entrySize, shift);
    }

    /** The end of the region map's entries (the entry of {@code g_highest_address}). */
    public long segMappingTableEnd() {
        return segMappingTable() + ((highest - lowest) >>> shift) * entrySize;
    }

    /** The mark array: page aligned after the region map. */
    public long markArray() {
        return alignUp(segMappingTableEnd(), PAGE);
    }

    /**
     * The region map translated as the GC keeps it: {@code get_region_info(p) = base + (p >> shift) * entrySize}, so
     * that {@code base + (lowest >> shift) * entrySize} is {@link #segMappingTable()}.
     */
    public long base() {
        return segMappingTable() - (lowest >>> shift) * entrySize;
    }

    /** {@code get_region_info(address)}: the region map entry of the basic region holding {@code address}. */
    public long entry(long address) {
        if (Long.compareUnsigned(address, lowest) < 0 || Long.compareUnsigned(address, highest) >= 0) {
            throw new IllegalArgumentException(String.format("0x%x is outside the GC range [0x%x, 0x%x)", address, lowest, highest));
        }
        return base() + (address >>> shift) * entrySize;
    }

    /** Where the region map starts in the area: the header and the five tables before it, each aligned as gc.cpp aligns it. */
    static long segMappingOffset(long range, long entrySize, int shift) {
        long at = HEADER + cardTableBytes(range);         // card table: uint32 per 32 cards of 256 bytes
        at = alignUp(at, 2) + brickTableBytes(range);     // brick table: short per 4 KiB
        at = alignUp(at, 4) + (range >>> 21);             // card bundle table: uint32 per 32 bundles of 32 card words
        at = alignUp(at, 8) + (range >>> 12);             // software write watch table: a byte per 4 KiB page
        at += range >>> shift;                            // region-to-generation table: a byte per basic region
        return alignUp(at, 8);
    }

    private static long cardTableBytes(long range) {
        return range >>> 11;
    }

    private static long brickTableBytes(long range) {
        return range >>> 11;
    }

    /** A bit per 16 bytes (mark_bit_pitch on 64-bit). */
    private static long markArrayBytes(long range) {
        return range >>> 7;
    }

    private static long alignUp(long value, long alignment) {
        return (value + alignment - 1) & -alignment;
    }
}
