package io.clrheap.walker.map;

import java.util.Arrays;

/**
 * A region's objects summarised in equal buckets of its bytes {@code [mem, end)}: per bucket the objects that start
 * in it, the object bytes in it (an object over several buckets is split at their bounds, so the buckets of a region
 * add up to its objects' bytes), and its largest types by bytes with the rest as {@link #OTHER}, largest first.
 */
public final class Buckets {

    /** The type index of the bytes of the types a bucket does not keep by name. */
    public static final int OTHER = -1;

    private final long bucketBytes;
    private final long[] counts;
    private final long[] bytes;
    /** Bucket i's entries are {@code [entryStart[i], entryStart[i + 1])} of entryTypes and entryBytes. */
    private final int[] entryStart;
    private final int[] entryTypes;
    private final long[] entryBytes;

    Buckets(long bucketBytes, long[] counts, long[] bytes, int[] entryStart, int[] entryTypes, long[] entryBytes) {
        this.bucketBytes = bucketBytes;
        this.counts = counts;
        this.bytes = bytes;
        this.entryStart = entryStart;
        this.entryTypes = entryTypes;
        this.entryBytes = entryBytes;
    }

    /** The width of a bucket for a region of {@code span} object bytes: a multiple of 8, at least the limits' minimum. */
    static long bucketBytes(long span, MapLimits limits) {
        long even = (span + limits.bucketsPerRegion() - 1) / limits.bucketsPerRegion();
        return Math.max(limits.minBucketBytes(), (even + 7) & -8L);
    }

    static int bucketCount(long span, long bucketBytes) {
        return (int) ((span + bucketBytes - 1) / bucketBytes);
    }

    static Buckets none(long bucketBytes) {
        return new Buckets(bucketBytes, new long[0], new long[0], new int[1], new int[0], new long[0]);
    }

    /** Bytes of the region each bucket covers (the last one may cover less). */
    public long bucketBytes() {
        return bucketBytes;
    }

    public int count() {
        return counts.length;
    }

    /** Objects that start in bucket {@code i}. */
    public long objects(int i) {
        return counts[i];
    }

    /** Object bytes in bucket {@code i}. */
    public long bytes(int i) {
        return bytes[i];
    }

    /** How many types bucket {@code i} keeps (the {@link #OTHER} entry included). */
    public int entries(int i) {
        return entryStart[i + 1] - entryStart[i];
    }

    /** The type of bucket {@code i}'s entry {@code e}: an index of {@link HeapMap#types()}, or {@link #OTHER}. */
    public int entryType(int i, int e) {
        return entryTypes[entry(i, e)];
    }

    public long entryBytes(int i, int e) {
        return entryBytes[entry(i, e)];
    }

    private int entry(int i, int e) {
        if (e < 0 || e >= entries(i)) {
            throw new IndexOutOfBoundsException("entry " + e + " of bucket " + i + ", which has " + entries(i));
        }
        return entryStart[i] + e;
    }

    void remap(int[] newIndex) {
        for (int k = 0; k < entryStart[counts.length]; k++) {
            if (entryTypes[k] != OTHER) {
                entryTypes[k] = newIndex[entryTypes[k]];
            }
        }
    }

    long totalBytes() {
        return Arrays.stream(bytes).sum();
    }
}
