package io.clrheap.emulator.space;

/**
 * A named range of an {@link AddressSpace}, as a process would have reserved it: the runtime module, a loader heap,
 * the native heap, the GC's reserve range.
 *
 * @param name  what it holds, e.g. {@code gc reserve}, {@code loader heap}
 * @param start first address
 * @param size  bytes
 */
public record Reservation(String name, long start, long size) {

    public long end() {
        return start + size;
    }

    public boolean contains(long address, long length) {
        return Long.compareUnsigned(address - start, size) < 0 && Long.compareUnsigned(length, size - (address - start)) <= 0;
    }
}
