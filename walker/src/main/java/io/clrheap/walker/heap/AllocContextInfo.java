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

    /** The record's components, the addresses in hex. */
    @Override
    public String toString() {
        return String.format("AllocContextInfo[owner=%s, location=0x%x, pointer=0x%x, limit=0x%x]", owner, location, pointer, limit);
    }
}
