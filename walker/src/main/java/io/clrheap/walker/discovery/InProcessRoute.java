package io.clrheap.walker.discovery;

/**
 * The way the in-process path went: whose allocation context led to the {@code GCHeap}, the vtable slot called, and
 * what the calls returned. What {@code clrheap explain} narrates.
 *
 * @param thread            the thread whose allocation context gave the GCHeap (empty when it came from {@code g_pGCHeap})
 * @param allocContext      that thread's {@code gc_alloc_context} (0 when none was used)
 * @param gcHeap            the {@code GCHeap} object called ({@code this})
 * @param vtable            its vtable (word 0)
 * @param descrGenerations  the code {@code DiagDescrGenerations} (slot 69) points to
 * @param ranges            how many times it called back
 * @param frozenHandle      the dummy frozen segment {@code RegisterFrozenSegment} returned (0 if the call failed)
 */
public record InProcessRoute(String thread, long allocContext, long gcHeap, long vtable, long descrGenerations, int ranges,
                             long frozenHandle) {
}
