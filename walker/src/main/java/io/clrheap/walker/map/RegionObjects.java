package io.clrheap.walker.map;

import java.util.Arrays;

/**
 * Every object of one region, in address order, as three parallel arrays (no Java object per heap object):
 * the offset from the region's {@code mem}, the unaligned size, and the index of its type in {@link HeapMap#types()}.
 */
public final class RegionObjects {

    private final long[] offsets;
    private final long[] sizes;
    private final int[] types;
    private final int count;

    RegionObjects(long[] offsets, long[] sizes, int[] types, int count) {
        this.offsets = offsets;
        this.sizes = sizes;
        this.types = types;
        this.count = count;
    }

    static RegionObjects empty() {
        return new RegionObjects(new long[0], new long[0], new int[0], 0);
    }

    public int count() {
        return count;
    }

    public long offset(int i) {
        return offsets[check(i)];
    }

    public long size(int i) {
        return sizes[check(i)];
    }

    public int type(int i) {
        return types[check(i)];
    }

    /** Gives every type index its new value ({@code newIndex[old]}). */
    void remap(int[] newIndex) {
        for (int i = 0; i < count; i++) {
            types[i] = newIndex[types[i]];
        }
    }

    RegionObjects trimmed() {
        return new RegionObjects(Arrays.copyOf(offsets, count), Arrays.copyOf(sizes, count), Arrays.copyOf(types, count), count);
    }

    private int check(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("object " + i + " of a region of " + count);
        }
        return i;
    }
}
