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

    /**
     * This region as a segments GC's ephemeral segment, split where its generations start (docs/reference/discovery.md
     * section 14): gen2 from {@code mem} to gen1's allocation_start (left out when gen1 starts at {@code mem}), gen1 to
     * gen0's, gen0 to {@code end}, the ephemeral one. Empty when the starts are not in that order inside it.
     */
    public java.util.Optional<java.util.List<Region>> splitAtGenerations(long gen1Start, long gen0Start) {
        boolean ordered = Long.compareUnsigned(mem, gen1Start) <= 0 && Long.compareUnsigned(gen1Start, gen0Start) <= 0
                && Long.compareUnsigned(gen0Start, end) <= 0;
        if (!ordered) {
            return java.util.Optional.empty();
        }
        java.util.List<Region> pieces = new java.util.ArrayList<>(3);
        if (gen1Start != mem) {
            pieces.add(new Region(heap, SegmentKind.GEN2, descriptor, mem, gen1Start, allocated, committed, reserved, flags, false));
        }
        pieces.add(new Region(heap, SegmentKind.GEN1, descriptor, gen1Start, gen0Start, allocated, committed, reserved, flags, false));
        pieces.add(new Region(heap, SegmentKind.GEN0, descriptor, gen0Start, end, allocated, committed, reserved, flags, true));
        return java.util.Optional.of(java.util.List.copyOf(pieces));
    }

    @Override
    public String toString() {
        return String.format("heap %d %s region [0x%x, 0x%x) (heap_segment 0x%x)", heap, kind.id(), mem, end, descriptor);
    }
}
