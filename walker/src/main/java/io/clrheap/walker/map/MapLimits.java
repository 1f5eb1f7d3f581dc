package io.clrheap.walker.map;

/**
 * How much of a heap a {@link HeapMap} keeps: every region is summarised in at most {@code bucketsPerRegion} buckets
 * of at least {@code minBucketBytes} each; each object is kept only for regions of at most {@code maxRegionObjects}
 * objects, and for at most {@code maxObjects} objects over the whole map — so that the map of a heap of many millions
 * of objects stays a size a browser draws quickly, and a larger region is shown by its buckets.
 *
 * @param bucketsPerRegion  buckets a region is cut into at most (fewer for a small region)
 * @param minBucketBytes    the smallest bucket, a multiple of 8 (a small region gets fewer buckets rather than tiny ones)
 * @param topTypesPerBucket types a bucket keeps by name; the rest are summed as "other"
 * @param maxRegionObjects  a region with more objects is kept as buckets only
 * @param maxObjects        objects kept one by one over the whole map; regions past the budget, in address order, are kept as buckets
 */
public record MapLimits(int bucketsPerRegion, long minBucketBytes, int topTypesPerBucket, int maxRegionObjects, long maxObjects) {

    public static final MapLimits DEFAULT = new MapLimits(1024, 256, 4, 50_000, 1_000_000);

    public MapLimits {
        if (bucketsPerRegion < 1 || minBucketBytes < 8 || minBucketBytes % 8 != 0 || topTypesPerBucket < 1 || maxRegionObjects < 0 || maxObjects < 0) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
                    "map limits: buckets per region %d (>= 1), minimum bucket %d bytes (a multiple of 8), top types per bucket %d (>= 1), "
                            + "objects per region %d and in all %d (>= 0)",
                    bucketsPerRegion, minBucketBytes, topTypesPerBucket, maxRegionObjects, maxObjects));
        }
    }

    /** The same limits with another budget of objects kept one by one ({@code --max-objects}). */
    public MapLimits withMaxObjects(long max) {
        return new MapLimits(bucketsPerRegion, minBucketBytes, topTypesPerBucket, (int) Math.min(maxRegionObjects, max), max);
    }
}
