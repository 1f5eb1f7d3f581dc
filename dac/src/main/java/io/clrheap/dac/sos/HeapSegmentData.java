package io.clrheap.dac.sos;

/** {@code GetHeapSegmentData}: one region or segment (DacpHeapSegmentData). */
public record HeapSegmentData(long segmentAddress, long allocated, long committed, long reserved, long used, long mem,
                              long next, long gcHeap, long highAllocMark, long flags, long backgroundAllocated) {
}
