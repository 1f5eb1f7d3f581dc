package io.clrheap.walker.walk;

import io.clrheap.walker.heap.Problem;

import io.clrheap.walker.heap.Region;

/**
 * Receives the objects of a walk, in address order within a region. Called once per object with plain values:
 * a walk allocates nothing per object.
 */
public interface ObjectVisitor {

    /**
     * @param address      the object (its MethodTable pointer)
     * @param methodTable  its MethodTable, mark bits cleared
     * @param size         its size, unaligned (an empty string is 22); the walk steps by max(align8(size), 24)
     * @param region       the region it is in
     */
    void object(long address, long methodTable, long size, Region region);

    /** A problem met during the walk; by default ignored (reports that care override it). */
    default void problem(Problem problem) {
    }
}
