package io.clrheap.walker.discovery;

import io.clrheap.walker.heap.FieldRead;

/**
 * A memory read discovery made: the field, its type and size, and the value read, or why the memory was missing.
 *
 * @param site    the structure, field, address and where the field's offset comes from
 * @param type    the field's type as the profile writes it ({@code pointer}, {@code uint32}, {@code int32}, ...)
 * @param size    bytes read
 * @param value   what was read, sign- or zero-extended as the type says (0 when missing)
 * @param missing empty when the bytes were read; else the missing memory, with its address (the
 *                {@link io.clrheap.memory.MissingMemoryException}'s message)
 */
public record Read(FieldRead site, String type, int size, long value, String missing) implements DiscoveryEvent {

    /** Whether the bytes were there. */
    public boolean ok() {
        return missing.isEmpty();
    }
}
