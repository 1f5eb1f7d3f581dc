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
 * @param problems         what discovery could not read or found inconsistent in the heap
 * @param profileNotes     where the layout clrheap chose disagrees with what the runtime publishes (an offset of
 *                         {@code gc_heap_field_offsets}): the published fact was used, so the heap is not at fault; the
 *                         profile is, and these say what to fix ({@link ProblemKind#OFFSET_MISMATCH})
 */
public record DiscoveredHeap(GcFlavor gc, List<SubHeap> heaps, List<AllocContextInfo> contexts, long freeMethodTable,
                             boolean gcInProgress, List<Problem> problems, List<Problem> profileNotes) {

    public DiscoveredHeap {
        heaps = List.copyOf(heaps);
        contexts = List.copyOf(contexts);
        problems = List.copyOf(problems);
        profileNotes = List.copyOf(profileNotes);
    }

    /** A heap whose layout agreed with everything the runtime publishes. */
    public DiscoveredHeap(GcFlavor gc, List<SubHeap> heaps, List<AllocContextInfo> contexts, long freeMethodTable,
                          boolean gcInProgress, List<Problem> problems) {
        this(gc, heaps, contexts, freeMethodTable, gcInProgress, problems, List.of());
    }

    /** Discovery's findings, the profile's disagreements ({@link ProblemKind#OFFSET_MISMATCH}) apart from the heap's problems. */
    public static DiscoveredHeap of(GcFlavor gc, List<SubHeap> heaps, List<AllocContextInfo> contexts, long freeMethodTable,
                                    boolean gcInProgress, List<Problem> found) {
        return new DiscoveredHeap(gc, heaps, contexts, freeMethodTable, gcInProgress,
                found.stream().filter(p -> p.kind() != ProblemKind.OFFSET_MISMATCH).toList(),
                found.stream().filter(p -> p.kind() == ProblemKind.OFFSET_MISMATCH).toList());
    }

    /** Every region of every heap, in address order (the order walks and reports use). */
    public List<Region> regionsByAddress() {
        return heaps.stream().flatMap(h -> h.regions().stream())
                .sorted(Comparator.comparing(Region::mem, Long::compareUnsigned)).toList();
    }

    /** What was found, the free MethodTable in hex; the lists counted. */
    @Override
    public String toString() {
        return String.format("DiscoveredHeap[gc=%s, heaps=%d, contexts=%d, freeMethodTable=0x%x, gcInProgress=%b, problems=%d, profileNotes=%d]",
                gc, heaps.size(), contexts.size(), freeMethodTable, gcInProgress, problems.size(), profileNotes.size());
    }
}
