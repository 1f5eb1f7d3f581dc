package io.clrheap.walker.map;

import io.clrheap.walker.heap.Region;
import io.clrheap.walker.walk.LongIntMap;
import io.clrheap.walker.walk.ObjectVisitor;
import io.clrheap.walker.heap.Problem;
import java.util.Arrays;

/**
 * Collects one region's walk for the map: types by a local index (first seen in the region), buckets as the walk
 * passes them (objects come in address order, so a bucket is final once the walk is past it), and the objects one by
 * one until the region has more than the limit. Nothing is allocated per object but the growth of the arrays.
 */
final class RegionCollector implements ObjectVisitor {

    private final MapLimits limits;

    // the region's types, by local index
    private final LongIntMap localIndex = new LongIntMap(64, Integer.MAX_VALUE);
    private long[] localMts = new long[16];
    private long[] localCounts = new long[16];
    private long[] localBytes = new long[16];
    private int localTypes;

    // buckets, set up at the first object
    private long mem;
    private long span = -1;
    private long bucketBytes;
    private long[] bucketCounts;
    private long[] bucketTotals;
    private int[] entryStart;
    private int[] entryTypes = new int[64];
    private long[] entryBytes = new long[64];
    private int entries;
    /** The bucket being filled; those before it are final. */
    private int current;
    private int[] accTypes = new int[16];
    private long[] accBytes = new long[16];
    private int accSize;

    // objects one by one, while the region has at most limits.maxRegionObjects()
    private long[] offsets = new long[64];
    private long[] sizes = new long[64];
    private int[] types = new int[64];
    private boolean tooMany;

    private long objects;
    private long bytes;
    private long problems;

    RegionCollector(MapLimits limits) {
        this.limits = limits;
        this.tooMany = limits.maxRegionObjects() == 0;
    }

    @Override
    public void object(long address, long methodTable, long size, Region region) {
        if (span < 0) {
            start(region);
        }
        int type = typeOf(methodTable);
        localCounts[type]++;
        localBytes[type] += size;
        objects++;
        bytes += size;
        long offset = address - mem;
        int first = (int) (offset / bucketBytes);
        int last = (int) Math.min(bucketCounts.length - 1, (offset + size - 1) / bucketBytes);
        bucketCounts[first]++;
        for (int b = first; b <= last; b++) {
            advanceTo(b);
            long from = Math.max(offset, b * bucketBytes);
            long to = Math.min(offset + size, (b + 1) * bucketBytes);
            bucketTotals[b] += to - from;
            accumulate(type, to - from);
        }
        if (!tooMany) {
            if (objects > limits.maxRegionObjects()) {
                tooMany = true;
                offsets = null;
                sizes = null;
                types = null;
            } else {
                int i = (int) objects - 1;
                if (i == offsets.length) {
                    int grown = (int) Math.min(limits.maxRegionObjects(), 2L * i);
                    offsets = Arrays.copyOf(offsets, grown);
                    sizes = Arrays.copyOf(sizes, grown);
                    types = Arrays.copyOf(types, grown);
                }
                offsets[i] = offset;
                sizes[i] = size;
                types[i] = type;
            }
        }
    }

    @Override
    public void problem(Problem problem) {
        problems++;
    }

    private void start(Region region) {
        mem = region.mem();
        span = Math.max(0, region.end() - region.mem());
        bucketBytes = Buckets.bucketBytes(span, limits);
        int n = Buckets.bucketCount(span, bucketBytes);
        bucketCounts = new long[n];
        bucketTotals = new long[n];
        entryStart = new int[n + 1];
    }

    private int typeOf(long methodTable) {
        int type = localIndex.get(methodTable, -1);
        if (type < 0) {
            if (localTypes == localMts.length) {
                localMts = Arrays.copyOf(localMts, localTypes * 2);
                localCounts = Arrays.copyOf(localCounts, localTypes * 2);
                localBytes = Arrays.copyOf(localBytes, localTypes * 2);
            }
            type = localTypes++;
            localMts[type] = methodTable;
            localIndex.put(methodTable, type);
        }
        return type;
    }

    private void accumulate(int type, long amount) {
        for (int k = 0; k < accSize; k++) {
            if (accTypes[k] == type) {
                accBytes[k] += amount;
                return;
            }
        }
        if (accSize == accTypes.length) {
            accTypes = Arrays.copyOf(accTypes, accSize * 2);
            accBytes = Arrays.copyOf(accBytes, accSize * 2);
        }
        accTypes[accSize] = type;
        accBytes[accSize++] = amount;
    }

    /** Closes the buckets before {@code bucket}. */
    private void advanceTo(int bucket) {
        while (current < bucket) {
            flush();
            current++;
        }
    }

    /** Writes the current bucket's largest types (largest first, ties by local index) and the rest as OTHER. */
    private void flush() {
        // insertion sort: a bucket holds few types
        for (int i = 1; i < accSize; i++) {
            int t = accTypes[i];
            long b = accBytes[i];
            int j = i - 1;
            while (j >= 0 && (accBytes[j] < b || (accBytes[j] == b && accTypes[j] > t))) {
                accTypes[j + 1] = accTypes[j];
                accBytes[j + 1] = accBytes[j];
                j--;
            }
            accTypes[j + 1] = t;
            accBytes[j + 1] = b;
        }
        int kept = Math.min(accSize, limits.topTypesPerBucket());
        long other = 0;
        for (int k = kept; k < accSize; k++) {
            other += accBytes[k];
        }
        ensureEntries(kept + 1);
        for (int k = 0; k < kept; k++) {
            entryTypes[entries] = accTypes[k];
            entryBytes[entries++] = accBytes[k];
        }
        if (other > 0) {
            entryTypes[entries] = Buckets.OTHER;
            entryBytes[entries++] = other;
        }
        entryStart[current + 1] = entries;
        accSize = 0;
    }

    private void ensureEntries(int more) {
        if (entries + more > entryTypes.length) {
            int grown = Math.max(entries + more, entryTypes.length * 2);
            entryTypes = Arrays.copyOf(entryTypes, grown);
            entryBytes = Arrays.copyOf(entryBytes, grown);
        }
    }

    // --- read by the builder once the region's walk is done

    /** Finishes the buckets of {@code region} (a region without objects was never started). */
    void finish(Region region) {
        if (span < 0) {
            start(region);
        }
        advanceTo(bucketCounts.length);
    }

    int localTypes() {
        return localTypes;
    }

    long localMethodTable(int t) {
        return localMts[t];
    }

    long localCount(int t) {
        return localCounts[t];
    }

    long localBytes(int t) {
        return localBytes[t];
    }

    long objects() {
        return objects;
    }

    long bytes() {
        return bytes;
    }

    long problems() {
        return problems;
    }

    /** The buckets, their types given by {@code toGlobal[local]}. */
    Buckets buckets(int[] toGlobal) {
        int[] typesOut = Arrays.copyOf(entryTypes, entries);
        for (int k = 0; k < entries; k++) {
            if (typesOut[k] != Buckets.OTHER) {
                typesOut[k] = toGlobal[typesOut[k]];
            }
        }
        return new Buckets(bucketBytes, bucketCounts, bucketTotals, entryStart, typesOut, Arrays.copyOf(entryBytes, entries));
    }

    /** Whether every object was kept one by one. */
    boolean complete() {
        return !tooMany || objects == 0;
    }

    /** The objects one by one, their types given by {@code toGlobal[local]}; only when {@link #complete()}. */
    RegionObjects detail(int[] toGlobal) {
        if (objects == 0) {
            return RegionObjects.empty();
        }
        RegionObjects kept = new RegionObjects(offsets, sizes, types, (int) objects).trimmed();
        kept.remap(toGlobal);
        return kept;
    }
}
