package io.clrheap.memory;

/** A range of target addresses {@code [start, start + length)}. */
public record MemoryRange(long start, long length) implements Comparable<MemoryRange> {

    public MemoryRange {
        if (length < 0) {
            throw new IllegalArgumentException("negative length " + length + " at 0x" + Long.toHexString(start));
        }
        if (Long.compareUnsigned(start + length, start) < 0 && start + length != 0) {
            throw new IllegalArgumentException(
                    "range at 0x" + Long.toHexString(start) + " of " + length + " bytes wraps past the top of the address space");
        }
    }

    /** The first address past the range (0 when the range ends at the top of the address space). */
    public long end() {
        return start + length;
    }

    public boolean contains(long address) {
        return Long.compareUnsigned(address - start, length) < 0;
    }

    public boolean contains(long address, long byteCount) {
        return contains(address) && Long.compareUnsigned(byteCount, length - (address - start)) <= 0;
    }

    @Override
    public int compareTo(MemoryRange other) {
        return Long.compareUnsigned(start, other.start);
    }

    @Override
    public String toString() {
        return String.format("[0x%x, 0x%x)", start, end());
    }
}
