package io.clrheap.emulator.process;

/** Hands out aligned, labelled blocks of one reservation, in order (deterministic addresses). */
public final class BumpAllocator {

    private final String name;
    private final long end;
    private long next;

    public BumpAllocator(String name, long start, long size) {
        this.name = name;
        this.next = start;
        this.end = start + size;
    }

    public long allocate(long size, long alignment) {
        long at = (next + alignment - 1) & -alignment;
        if (Long.compareUnsigned(at + size, end) > 0) {
            throw new IllegalStateException(String.format("%s is full: %d bytes more do not fit below 0x%x", name, size, end));
        }
        next = at + size;
        return at;
    }
}
