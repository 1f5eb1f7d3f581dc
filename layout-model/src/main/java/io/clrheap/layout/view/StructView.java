package io.clrheap.layout.view;

import io.clrheap.memory.Memory;

/**
 * A typed view of one runtime structure at an address of a {@link Memory}. Implementations are generated per
 * profile by {@link ViewFactory}, with the profile's field offsets compiled in as constants.
 */
public interface StructView {

    /** The address of the structure. */
    long address();

    /** The memory the view reads. */
    Memory memory();

    /** A view of the same structure type over the same memory at another address. */
    StructView at(long address);
}
