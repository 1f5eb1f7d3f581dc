package io.clrheap.walker.report;

/**
 * One GC handle.
 *
 * @param handle    the handle: the address of its slot in a handle table segment
 * @param type      its handle type (the block's {@code rgBlockType}), e.g. 2 = strong
 * @param typeName  the type's name, e.g. {@code strong}, {@code weak_short}, {@code dependent}
 * @param target    the object the slot holds
 * @param secondary the secondary object of a dependent handle (the slot of the same index in the block's user-data block), else 0
 * @param table     which heap's table it is in
 */
public record HandleInfo(long handle, int type, String typeName, long target, long secondary, int table) {

    /** The record's components, the addresses in hex. */
    @Override
    public String toString() {
        return String.format("HandleInfo[handle=0x%x, type=%d, typeName=%s, target=0x%x, secondary=0x%x, table=%d]", handle, type, typeName, target, secondary, table);
    }
}
