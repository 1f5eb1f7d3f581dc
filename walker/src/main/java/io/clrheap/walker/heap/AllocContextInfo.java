package io.clrheap.walker.heap;

/**
 * An allocation context: {@code [pointer, limit + tail reserve)} holds no objects yet and is skipped by walks.
 *
 * @param owner    who owns it: {@code thread 1 (tid 30152)}, {@code heap 0 gen0}, {@code global}
 * @param location the address of the {@code gc_alloc_context}
 * @param pointer  {@code alloc_ptr}
 * @param limit    {@code alloc_limit}
 */
public record AllocContextInfo(String owner, long location, long pointer, long limit) {

    /** A context with alloc_ptr 0 was never used (or was retired). */
    public boolean inUse() {
        return pointer != 0;
    }
}
