package io.clrheap.emulator;

/** Edge cases a scenario can add to its heap (walker-semantics.md section 7 numbers them). */
public enum Feature {
    /** §1-6: System.Object, the empty string, a 3-char string, byte[] of 0/1/5/8, a 12-byte struct array of 3, int[2,3]. */
    SIZE_EDGES,
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
    INTERLEAVED_HEAPS
}
