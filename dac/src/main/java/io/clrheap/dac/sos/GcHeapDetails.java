package io.clrheap.dac.sos;

import java.util.List;

/**
 * {@code GetGCHeapDetails} (server) or {@code GetGCHeapStaticData} (workstation): one heap (DacpGcHeapDetails).
 *
 * @param heapAddress          the gc_heap (server), 0 for workstation
 * @param allocAllocated       where the ephemeral region's objects end
 * @param generations          generation_table[0..3] (gen0, gen1, gen2, LOH): POH comes from ISOSDacInterface8
 * @param ephemeralHeapSegment the ephemeral heap_segment
 */
public record GcHeapDetails(long heapAddress, long allocAllocated, long markArray, long currentCGcState, long nextSweepObj,
                            List<GenerationData> generations, long ephemeralHeapSegment, long lowestAddress, long highestAddress,
                            long cardTable) {

    public GcHeapDetails {
        generations = List.copyOf(generations);
    }
}
