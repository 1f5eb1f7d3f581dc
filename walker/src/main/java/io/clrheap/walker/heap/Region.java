package io.clrheap.walker.heap;

/**
 * A region (or segment) whose objects a walk visits.
 *
 * @param heap       the heap number (0 under workstation GC)
 * @param kind       its generation, or frozen
 * @param descriptor the address of its {@code heap_segment}
 * @param mem        the first object
 * @param end        where its objects end: {@code allocated}, or the heap's {@code alloc_allocated} for the ephemeral region
 * @param allocated  {@code heap_segment.allocated} as read
 * @param committed  {@code heap_segment.committed}
 * @param reserved   {@code heap_segment.reserved}
 * @param flags      {@code heap_segment.flags}
 * @param ephemeral  whether it is the heap's {@code ephemeral_heap_segment}
 */
public record Region(int heap, SegmentKind kind, long descriptor, long mem, long end, long allocated, long committed,
                     long reserved, long flags, boolean ephemeral) {

    /** Bytes between mem and end. */
    public long objectBytes() {
        return end - mem;
    }

    public boolean contains(long address) {
        return Long.compareUnsigned(address - mem, end - mem) < 0;
    }

    @Override
    public String toString() {
        return String.format("heap %d %s region [0x%x, 0x%x) (heap_segment 0x%x)", heap, kind.id(), mem, end, descriptor);
    }
}
