package io.clrheap.walker.discovery;

import io.clrheap.walker.heap.FieldRead;

/**
 * A heap's gc_heap members as read: where its generation table is and where the ephemeral region's objects end.
 *
 * @param allocAllocatedRead the read of {@code alloc_allocated}: what a bad ephemeral region's problem names
 * @param ephemeralRead      the read of {@code ephemeral_heap_segment}: what an ephemeral region in no list names
 */
record HeapRoots(int index, long gcHeap, long generationTable, long allocAllocated, long ephemeralSegment, long finalizeQueue,
                 FieldRead allocAllocatedRead, FieldRead ephemeralRead) {
}
