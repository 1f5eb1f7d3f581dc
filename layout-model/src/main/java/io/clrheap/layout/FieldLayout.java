package io.clrheap.layout;

/**
 * One field of a runtime structure.
 *
 * @param name        the runtime's own name of the field (e.g. {@code m_alloc_context}, {@code next})
 * @param offset      byte offset from the start of the structure
 * @param type        its type
 * @param size        its size in bytes (element size × count)
 * @param elementSize size of one element (the whole field when not an array)
 * @param provenance  where the offset comes from
 */
public record FieldLayout(String name, long offset, FieldType type, long size, long elementSize, Provenance provenance) {

    /** The first byte past the field. */
    public long end() {
        return offset + size;
    }
}
