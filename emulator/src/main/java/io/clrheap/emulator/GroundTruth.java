package io.clrheap.emulator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What the emulator placed, written as it places it (never read back from memory): every object in primitive
 * arrays (no Java object per heap object), the regions, the allocation contexts and the threads.
 */
public final class GroundTruth {

    /** What a placed object is. */
    public enum Kind {
        OBJECT, FREE, PADDING;

        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** A region as built: heap, generation (0-4, or -1 for frozen), its descriptor and bounds. */
    public record RegionInfo(int heap, int generation, boolean frozen, long descriptor, long start, long mem, long end, long reserved, long flags) {
    }

    /** An allocation context as left: owner, where the gc_alloc_context is, pointer and limit. */
    public record ContextInfo(String owner, long location, long pointer, long limit) {
    }

    /** A GC handle as placed: its slot address, kind (strong, weak_short, weak_long, pinned, dependent), target, dependent secondary. */
    public record HandleInfo(long handle, String type, long target, long secondary) {
    }

    private final List<HandleInfo> handles = new ArrayList<>();
    private long[] addresses = new long[1024];
    private long[] methodTables = new long[1024];
    private long[] sizes = new long[1024];
    private byte[] generations = new byte[1024];
    private short[] heaps = new short[1024];
    private byte[] kinds = new byte[1024];
    private int count;
    private final List<RegionInfo> regions = new ArrayList<>();
    private final List<ContextInfo> contexts = new ArrayList<>();

    void addObject(long address, long methodTable, long size, int generation, int heap, Kind kind) {
        if (count == addresses.length) {
            int n = count * 2;
            addresses = Arrays.copyOf(addresses, n);
            methodTables = Arrays.copyOf(methodTables, n);
            sizes = Arrays.copyOf(sizes, n);
            generations = Arrays.copyOf(generations, n);
            heaps = Arrays.copyOf(heaps, n);
            kinds = Arrays.copyOf(kinds, n);
        }
        addresses[count] = address;
        methodTables[count] = methodTable;
        sizes[count] = size;
        generations[count] = (byte) generation;
        heaps[count] = (short) heap;
        kinds[count] = (byte) kind.ordinal();
        count++;
    }

    void addRegion(RegionInfo region) {
        regions.add(region);
    }

    void addContext(ContextInfo context) {
        contexts.add(context);
    }

    void addHandle(HandleInfo handle) {
        handles.add(handle);
    }

    public List<HandleInfo> handles() {
        return List.copyOf(handles);
    }

    public int objectCount() {
        return count;
    }

    public long address(int i) {
        return addresses[i];
    }

    public long methodTable(int i) {
        return methodTables[i];
    }

    /** Unaligned size, as walkers report it. */
    public long size(int i) {
        return sizes[i];
    }

    /** 0, 1, 2, 3 (LOH), 4 (POH), or -1 (frozen). */
    public int generation(int i) {
        return generations[i];
    }

    public int heap(int i) {
        return heaps[i];
    }

    public Kind kind(int i) {
        return Kind.values()[kinds[i]];
    }

    public List<RegionInfo> regions() {
        return List.copyOf(regions);
    }

    public List<ContextInfo> contexts() {
        return List.copyOf(contexts);
    }

    /** Objects sorted by address: the order a walk visits them in. */
    public int[] byAddress() {
        Integer[] order = new Integer[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compareUnsigned(addresses[a], addresses[b]));
        return Arrays.stream(order).mapToInt(Integer::intValue).toArray();
    }
}
