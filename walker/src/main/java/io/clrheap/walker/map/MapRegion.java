package io.clrheap.walker.map;

import io.clrheap.walker.heap.Region;
import java.util.List;
import java.util.Optional;

/**
 * One region of the map: where it is, the allocation contexts in it, what the walk found in it, summarised in
 * buckets and, when it is small enough and the map's budget allows, object by object.
 *
 * @param region   the region as discovery found it (heap, kind, descriptor, mem, end, reserved, ...)
 * @param contexts the allocation contexts inside it, by address
 * @param objects  the objects the walk found in it
 * @param bytes    their unaligned bytes
 * @param problems problems the walk met in it
 * @param buckets  its objects by bucket
 * @param detail   every object, or empty when the region is only summarised (too many objects, or past the budget)
 */
public record MapRegion(Region region, List<MapContext> contexts, long objects, long bytes, long problems, Buckets buckets,
                        Optional<RegionObjects> detail) {

    public MapRegion {
        contexts = List.copyOf(contexts);
    }
}
