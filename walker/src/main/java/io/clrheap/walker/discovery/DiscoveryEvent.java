package io.clrheap.walker.discovery;

/**
 * One step of discovery, as a {@link DiscoveryListener} sees it: a memory {@link Read}, or a point of the chase
 * (docs/reference/discovery.md sections 4-8): GcDacVars found, a published offset array, a heap entered, its
 * generation table, a generation's region list, a heap_segment, a region accepted or rejected, the thread store, a
 * thread, an allocation context, a problem, the in-process path's GCHeap, and the heap discovered.
 */
public sealed interface DiscoveryEvent permits Read, GcDacVarsFound, OffsetsPublished, HeapEntered, GenerationTableEntered,
        GenerationListEntered, SegmentEntered, RegionAccepted, RegionRejected, ThreadStoreEntered, ThreadEntered,
        ThreadIdentified, ContextEntered, ContextFound, ProblemRaised, GcHeapFound, HeapDiscovered {
}
