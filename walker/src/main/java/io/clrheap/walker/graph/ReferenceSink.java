package io.clrheap.walker.graph;

/** Receives an object's references, one call per non-null reference field, in field order. */
@FunctionalInterface
public interface ReferenceSink {

    /**
     * @param from   the object holding the reference
     * @param offset the field's offset from the object's start (the MethodTable word is offset 0)
     * @param to     the address the field holds
     */
    void reference(long from, long offset, long to);
}
