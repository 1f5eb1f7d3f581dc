package io.clrheap.walker.explain;

/**
 * A thread of the thread store as the narrated reads found it.
 *
 * @param owner        how reports name it: {@code thread 1 (tid 30152)}
 * @param thread       the native {@code Thread}
 * @param allocContext its {@code gc_alloc_context} (0 when it has none)
 * @param pointer      {@code alloc_ptr}
 * @param limit        {@code alloc_limit}
 * @param gcReserved1  {@code gc_reserved_1}: the {@code GCHeap} it allocates on (server GC), or 0
 * @param section      the reads that found it
 */
record NarratedThread(String owner, long thread, long allocContext, long pointer, long limit, long gcReserved1,
                      ExplainSection section) {
}
