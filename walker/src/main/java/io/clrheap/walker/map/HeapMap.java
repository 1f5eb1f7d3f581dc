package io.clrheap.walker.map;

import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.report.TypeNames;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.walk.WalkRules;
import java.util.List;
import java.util.Optional;

/**
 * What a drawing of a heap needs: every region (heap, generation or frozen, bounds, allocation contexts), its
 * objects summarised in buckets and, within the {@link MapLimits}, one by one, and the legend of types. Built by
 * one walk, streaming: no Java object per heap object.
 *
 * @param types           every type met, by rank of total bytes (the legend); a type's index is its position
 * @param regions         every region, in address order (as the walk and regions.tsv order them)
 * @param objects         objects walked in all
 * @param bytes           their unaligned bytes
 * @param detailedObjects objects kept one by one (in regions whose {@link MapRegion#detail()} is present)
 * @param problems        problems met by discovery and by the walk
 * @param rules           the walk's rules (alignment, minimum object size: how far an object reaches)
 * @param limits          the limits the map was built with
 */
public record HeapMap(List<MapType> types, List<MapRegion> regions, long objects, long bytes, long detailedObjects,
                      long problems, WalkRules rules, MapLimits limits) {

    public HeapMap {
        types = List.copyOf(types);
        regions = List.copyOf(regions);
    }

    /**
     * Walks {@code heap} with {@code walker} on {@code parallelism} threads and builds its map; the same heap gives
     * the same map whatever the parallelism.
     */
    public static HeapMap build(HeapWalker walker, DiscoveredHeap heap, WalkRules rules, TypeNames names, MapLimits limits,
                                int parallelism) throws InterruptedException {
        return new HeapMapBuilder(walker, heap, rules, names, limits).build(parallelism);
    }

    /** The legend entry of free objects, if the heap has any. */
    public Optional<MapType> freeType() {
        return types.stream().filter(MapType::free).findFirst();
    }

    /** Regions only summarised in buckets. */
    public long aggregatedRegions() {
        return regions.stream().filter(r -> r.detail().isEmpty()).count();
    }
}
