package io.clrheap.walker.heap;

import io.clrheap.layout.GcFlavor;
import io.clrheap.walker.heap.Problem;
import java.util.Comparator;
import java.util.List;

/**
 * Everything a walk needs, found by discovery: the heaps and their regions, the allocation contexts to skip, the
 * free-object MethodTable, and what discovery found wrong on the way.
 *
 * @param gc               server or workstation
 * @param heaps            the heaps, by number
 * @param contexts         every allocation context found (threads', each heap's gen0, the global one)
 * @param freeMethodTable  {@code *g_pFreeObjectMethodTable}
 * @param gcInProgress     {@code gc_structures_invalid_cnt != 0}: the dump was taken during a GC
 * @param problems         what discovery could not read or found inconsistent
 */
public record DiscoveredHeap(GcFlavor gc, List<SubHeap> heaps, List<AllocContextInfo> contexts, long freeMethodTable,
                             boolean gcInProgress, List<Problem> problems) {

    public DiscoveredHeap {
        heaps = List.copyOf(heaps);
        contexts = List.copyOf(contexts);
        problems = List.copyOf(problems);
    }

    /** Every region of every heap, in address order (the order walks and reports use). */
    public List<Region> regionsByAddress() {
        return heaps.stream().flatMap(h -> h.regions().stream())
                .sorted(Comparator.comparing(Region::mem, Long::compareUnsigned)).toList();
    }
}
