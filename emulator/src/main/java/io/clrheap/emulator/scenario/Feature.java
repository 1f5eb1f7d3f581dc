package io.clrheap.emulator.scenario;

/** Edge cases a scenario can add to its heap (docs/reference/walker-semantics.md section 7 numbers them). */
public enum Feature {
    /** §1: a System.Object, the minimum object (24 bytes). */
    MIN_OBJECT,
    /** §2: the empty string: reported 22, stepped 24. */
    EMPTY_STRING,
    /** §3: a 3-character string: reported 28, stepped 32. */
    ODD_STRING,
    /** §4: byte[] of lengths 0, 1, 5, 8: reported 24, 25, 29, 32. */
    BYTE_ARRAY_LENGTHS,
    /** §5: an array of three 12-byte structs: 60 bytes. */
    STRUCT_ARRAY,
    /** §6: int[2,3], a rank-2 array: BaseSize 40, 64 bytes. */
    MD_ARRAY,
    /** §11: a live allocation context that starts exactly at its gen0 region's mem. */
    CONTEXT_AT_REGION_START,
    /** §12: two live allocation contexts back to back (limit1 + 24 == ptr2). */
    CHAINED_CONTEXTS,
    /** §20: POH objects both small and large (over the LOH threshold), with no padding. */
    POH_MIXED,
    /** §36: over a thousand instances of one type (thousands separators in dumpheap -stat). */
    THOUSANDS,
    /** §10: a thread's allocation context used up exactly (alloc_ptr == alloc_limit): 24 bytes still to skip. */
    EXHAUSTED_CONTEXT,
    /** §13: a live global allocation context (g_global_alloc_context) in the middle of gen0. */
    GLOBAL_CONTEXT,
    /** §14: a live allocation context in heap 0's gen0 generation-table entry. */
    HEAP_GEN0_CONTEXT,
    /** §24: MethodTable words with the GC mark bit (bit 0) set, as in a dump taken mid-mark. */
    MARK_BITS,
    /** §38: a free gap of 600 KiB in gen2 directly followed by a live object. */
    LARGE_FREE_GAP,
    /** §22: heap 1's regions carved below heap 0's (server GC). */
    INTERLEAVED_HEAPS,
    /** §42: garbage in the 4 bytes after an array's 32-bit length (only the low uint32 is the length). */
    LENGTH_PADDING_GARBAGE,
    /** §16: a live allocation context whose limit + 24 is its gen0 region's reserved end. */
    CONTEXT_AT_REGION_END,
    /** §17: a live allocation context left in a gen0 region that is no longer the ephemeral one (another thread moved on). */
    CONTEXT_IN_OLDER_REGION,
    /**
     * Weak handles, short and long, to objects nothing else reaches (no strong handle, no finalization queue, no stack,
     * no reference): dead to the GC, live to a walker that counts weak handles as roots (docs/answer-key.md, live.tsv).
     */
    WEAK_ONLY_OBJECTS,
    /**
     * Segments GC only: a live allocation context that starts at gen0's allocation_start, right after the free object
     * gen0 starts with (the program ends with a collection, so gen0 holds nothing else).
     */
    CONTEXT_AT_GENERATION_START,
    /**
     * Segments GC only: stale objects (System.Object images a compaction left behind) between each segment's end of
     * objects and its committed end; heap_segment.used covers them.
     */
    STALE_SEGMENT_TAIL;

    /** Whether it places allocation contexts in regions (refused under the segments GC). */
    public boolean regionsOnly() {
        return this == CONTEXT_IN_OLDER_REGION || this == CONTEXT_AT_REGION_END || this == CONTEXT_AT_REGION_START;
    }

    /** Whether only a segments GC has it (refused under regions). */
    public boolean segmentsOnly() {
        return this == CONTEXT_AT_GENERATION_START || this == STALE_SEGMENT_TAIL;
    }

    /** Threads of its own an edge case takes (ThreadBuilder.placeContextEdgeCases). */
    public int threadsNeeded() {
        return switch (this) {
            case EXHAUSTED_CONTEXT, CONTEXT_AT_REGION_END, CONTEXT_AT_REGION_START, CONTEXT_AT_GENERATION_START -> 1;
            case CHAINED_CONTEXTS, CONTEXT_IN_OLDER_REGION -> 2;
            default -> 0;
        };
    }
}
