package io.clrheap.emulator.truth;

import java.util.function.LongConsumer;

/** Where the references of a type's objects are: what the type's GC descriptor says (types.GcDescriptor implements it). */
@FunctionalInterface
public interface ReferenceLayout {

    /** The offsets of the references of an object of {@code objectSize} bytes (BaseSize + count x ComponentSize), ascending. */
    void forEachOffset(long objectSize, LongConsumer offset);
}
