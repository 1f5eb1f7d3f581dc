package io.clrheap.walker.graph;

/**
 * One reference of a {@link HeapGraph}: object {@code source} holds object {@code target} in its field at
 * {@code offset} (ClrMD's {@code ClrReference}: the object, and the field's offset after the MethodTable pointer is
 * {@code offset - 8}). Objects are the graph's indexes: {@link HeapGraph#address(int)} gives their addresses.
 *
 * @param source the object holding the reference
 * @param target the object referred to
 * @param offset the field's offset from the object's start, where the reference is read
 */
public record Edge(int source, int target, int offset) {

    @Override
    public String toString() {
        return String.format("Edge[object %d -> object %d, field +0x%x]", source, target, offset);
    }
}
