package io.clrheap.layout.view;

/**
 * {@code RuntimeThreadLocals} (.NET 9+): the per-thread block holding the allocation context — a
 * {@code gc_alloc_context} in .NET 9, an {@code ee_alloc_context} in .NET 10 (see the profile's field type).
 */
@Struct("RuntimeThreadLocals")
public interface RuntimeThreadLocals extends StructView {

    /** The address of the embedded allocation context, whichever its type. */
    @Field("AllocContext") long allocContextAddress();
}
