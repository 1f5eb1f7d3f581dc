package io.clrheap.walker.heap;

import java.util.List;

/**
 * One GC heap (server GC has several, workstation one).
 *
 * @param index            heap number
 * @param gcHeap           the {@code gc_heap} object (server), or 0 (workstation: its members are statics)
 * @param generationTable  the address of {@code generation_table[0]}
 * @param allocAllocated   where the ephemeral region's objects end
 * @param ephemeralSegment the {@code heap_segment} of the ephemeral region
 * @param finalizeQueue    the heap's {@code CFinalize*}
 * @param regions          its regions, generation by generation (gen2 with frozen first, gen1, gen0, LOH, POH)
 */
public record SubHeap(int index, long gcHeap, long generationTable, long allocAllocated, long ephemeralSegment,
                      long finalizeQueue, List<Region> regions) {

    public SubHeap {
        regions = List.copyOf(regions);
    }

    /** The record's components, the addresses in hex, the regions counted (each prints as {@link Region#toString()}). */
    @Override
    public String toString() {
        return String.format("SubHeap[index=%d, gcHeap=0x%x, generationTable=0x%x, allocAllocated=0x%x, ephemeralSegment=0x%x, finalizeQueue=0x%x, regions=%d]",
                index, gcHeap, generationTable, allocAllocated, ephemeralSegment, finalizeQueue, regions.size());
    }
}
