package io.clrheap.walker.map;

import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.report.TypeNames;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.walk.LongIntMap;
import io.clrheap.walker.walk.WalkRules;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Builds a {@link HeapMap}: walks the regions in parallel, one {@link RegionCollector} each, and merges them in
 * address order — types are numbered in the order first seen by address, then renumbered by rank of total bytes —
 * so the map does not depend on which thread walked which region.
 */
final class HeapMapBuilder {

    private final HeapWalker walker;
    private final DiscoveredHeap heap;
    private final WalkRules rules;
    private final TypeNames names;
    private final MapLimits limits;

    // types by the order first seen (by address)
    private final LongIntMap seen = new LongIntMap(1024, Integer.MAX_VALUE);
    private long[] mts = new long[256];
    private long[] counts = new long[256];
    private long[] totals = new long[256];
    private int types;

    /** Per region, merged in order: what it held, its buckets and objects numbered by first-seen type. */
    private record Merged(Region region, long objects, long bytes, long problems, Buckets buckets, RegionObjects detail) {
    }

    private final List<Merged> merged = new ArrayList<>();
    private long detailed;

    HeapMapBuilder(HeapWalker walker, DiscoveredHeap heap, WalkRules rules, TypeNames names, MapLimits limits) {
        this.walker = walker;
        this.heap = heap;
        this.rules = rules;
        this.names = names;
        this.limits = limits;
    }

    HeapMap build(int parallelism) throws InterruptedException {
        List<Region> regions = walker.regions();
        walker.walkRegions(() -> new RegionCollector(limits), collector -> merge(regions.get(merged.size()), collector), parallelism);

        // rank: most bytes first, ties in first-seen order; free objects take their rank but always grey
        Integer[] order = new Integer[types];
        for (int i = 0; i < types; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingLong((Integer i) -> totals[i]).reversed().thenComparingInt(i -> i));
        int[] rankOf = new int[types];
        List<MapType> legend = new ArrayList<>(types);
        int colourRank = 0;
        for (int rank = 0; rank < types; rank++) {
            int t = order[rank];
            rankOf[t] = rank;
            boolean free = mts[t] == heap.freeMethodTable();
            String name = names.display(mts[t], heap.freeMethodTable());
            String colour = free ? TypeColours.FREE : TypeColours.of(colourRank++, name);
            legend.add(new MapType(rank, mts[t], name, counts[t], totals[t], colour, free));
        }

        List<MapRegion> out = new ArrayList<>(merged.size());
        long objects = 0;
        long bytes = 0;
        long problems = heap.problems().size();
        for (Merged m : merged) {
            m.buckets.remap(rankOf);
            if (m.detail != null) {
                m.detail.remap(rankOf);
            }
            out.add(new MapRegion(m.region, contextsIn(m.region), m.objects, m.bytes, m.problems, m.buckets, Optional.ofNullable(m.detail)));
            objects += m.objects;
            bytes += m.bytes;
            problems += m.problems;
        }
        return new HeapMap(legend, out, objects, bytes, detailed, problems, rules, limits);
    }

    private void merge(Region region, RegionCollector c) {
        c.finish(region);
        int[] toGlobal = new int[c.localTypes()];
        for (int t = 0; t < c.localTypes(); t++) {
            long mt = c.localMethodTable(t);
            int g = seen.get(mt, -1);
            if (g < 0) {
                if (types == mts.length) {
                    mts = Arrays.copyOf(mts, types * 2);
                    counts = Arrays.copyOf(counts, types * 2);
                    totals = Arrays.copyOf(totals, types * 2);
                }
                g = types++;
                mts[g] = mt;
                seen.put(mt, g);
            }
            counts[g] += c.localCount(t);
            totals[g] += c.localBytes(t);
            toGlobal[t] = g;
        }
        // the budget is spent in address order: which regions are kept whole depends on the heap only
        RegionObjects detail = null;
        if (c.complete() && detailed + c.objects() <= limits.maxObjects()) {
            detail = c.detail(toGlobal);
            detailed += c.objects();
        }
        merged.add(new Merged(region, c.objects(), c.bytes(), c.problems(), c.buckets(toGlobal), detail));
    }

    /**
     * The allocation contexts the walk skips in {@code region}: in use, in a gen0/1/2 region, alloc_ptr within
     * {@code [mem, end]} (as HeapWalker chooses them), reaching to alloc_limit + the tail reserve.
     */
    private List<MapContext> contextsIn(Region region) {
        if (!region.kind().smallObjectHeap()) {
            return List.of();
        }
        List<MapContext> inside = new ArrayList<>();
        for (AllocContextInfo c : heap.contexts()) {
            if (c.inUse() && Long.compareUnsigned(c.pointer() - region.mem(), region.end() - region.mem()) <= 0) {
                inside.add(new MapContext(c.owner(), c.pointer(), c.limit() + rules.contextTailReserve()));
            }
        }
        inside.sort((a, b) -> Long.compareUnsigned(a.start(), b.start()));
        return inside;
    }
}
