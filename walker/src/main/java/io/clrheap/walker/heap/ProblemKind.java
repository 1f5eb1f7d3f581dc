package io.clrheap.walker.heap;

/** The kinds of problem discovery and walks report, each with where the walk goes on. */
public enum ProblemKind {
    /** A region chain comes back to a region already seen: the chain is cut there. */
    SEGMENT_CYCLE("region list cycle"),
    /** More regions than {@link WalkLimits#maxRegions()}: the rest of the chain is not followed. */
    TOO_MANY_REGIONS("too many regions"),
    /** n_heaps is outside 1..{@link WalkLimits#maxHeaps()}: the heaps are counted from g_heaps instead (each must own its ephemeral region). */
    BAD_HEAP_COUNT("implausible heap count"),
    /** A handle table map or segment chain comes back to an element already seen: the chain is cut there. */
    HANDLE_TABLE_CYCLE("handle table cycle"),
    /** A region descriptor or a global discovery needs cannot be read. */
    UNREADABLE_STRUCTURE("unreadable structure"),
    /** A region whose mem/allocated/reserved are out of order: it is not walked. */
    BAD_REGION_BOUNDS("bad region bounds"),
    /** An allocation context whose alloc_ptr lies above alloc_limit, or on objects: it is ignored. */
    BAD_ALLOC_CONTEXT("bad allocation context"),
    /**
     * An offset the runtime publishes differs from the layout clrheap chose: the published one is used. A fact of the
     * profile to fix, not of the heap: discovery keeps it apart ({@link DiscoveredHeap#profileNotes()}), and a walk
     * that meets it is not failed for it.
     */
    OFFSET_MISMATCH("profile differs from the published offset"),
    /** The thread list does not end or cannot be read: threads after that point are not seen. */
    BAD_THREAD_LIST("bad thread list"),
    /** The dump was taken while a GC ran: the heap may not be walkable. */
    GC_IN_PROGRESS("GC in progress"),
    /** An in-process call into the runtime (DiagDescrGenerations, RegisterFrozenSegment) failed: what it would have listed is missing. */
    NATIVE_CALL_FAILED("native call failed"),
    /** Two entries of {@code g_heaps} are the same gc_heap: it is walked once, and the heap the entry should be is looked for in the region map. */
    DUPLICATE_HEAP("heap listed twice"),
    /** A heap lists no region at all (regions mode: every heap has regions of every generation): its regions are looked for in the region map. */
    HEAP_WITHOUT_REGIONS("heap without regions"),
    /** A generation's {@code start_segment} is 0 (regions mode: every generation starts with a region): its regions are looked for in the region map. */
    MISSING_GENERATION_START("generation without a start region"),
    /** A region that two lists name (regions mode: every region is in exactly one list): it is walked once. */
    REGION_LISTED_TWICE("region in two lists"),
    /** A region in one heap's lists whose {@code heap_segment.heap} names another gc_heap. */
    FOREIGN_REGION("region owned by another heap"),
    /** The heap's {@code ephemeral_heap_segment} is in none of its lists: the listed region holding {@code alloc_allocated} is taken as ephemeral, when there is one. */
    EPHEMERAL_NOT_LISTED("ephemeral region in no list"),
    /** A region no list names, found through the region map (the GC's table of region descriptors): it is walked. */
    RECOVERED_REGION("region recovered from the region map"),
    /** A list is broken but the region map cannot be used to recover what it hides (no intact region to locate it, or unreadable). */
    REGION_MAP_UNUSABLE("region map unusable"),
    /** A module's ECMA-335 metadata (its root, a table, a #Strings entry) is corrupt: its types cannot be named. */
    CORRUPT_METADATA("corrupt metadata"),
    /** An object's MethodTable word is zero: the walk resyncs. */
    NULL_METHOD_TABLE("null MethodTable"),
    /** An object's MethodTable is unreadable or not plausible: the walk resyncs. */
    BAD_METHOD_TABLE("bad MethodTable"),
    /** A MethodTable's GC descriptor (the series before it, gcdesc.h) is implausible or runs past its objects: their references are not enumerated. */
    BAD_GC_DESCRIPTOR("bad GC descriptor"),
    /** A reference field holds an address that is no object start of the heap (nor of a frozen segment). */
    DANGLING_REFERENCE("reference to no object"),
    /** An object's size runs past its region's end: the walk resyncs. */
    OBJECT_PAST_REGION_END("object past region end"),
    /** Object memory itself is not in the dump: the walk resyncs past the gap. */
    UNREADABLE_OBJECT("unreadable object memory");

    private final String text;

    ProblemKind(String text) {
        this.text = text;
    }

    public String text() {
        return text;
    }
}
