package io.clrheap.layout.view;

/** The {@code IGCHeap} vtable; only the slots heap walkers call are described. */
@Struct("IGCHeapVtable")
public interface GcHeapVtable extends StructView {

    /**
     * Slot 69: {@code void DiagDescrGenerations(gen_walk_fn fn, void* context)}, which calls
     * {@code fn(context, generation, range_start, range_end, range_reserved)} for every region.
     */
    @Field("DiagDescrGenerations") long diagDescrGenerations();

    interface Writable extends GcHeapVtable, WritableStructView {
        @Field("DiagDescrGenerations") void diagDescrGenerations(long value);
    }
}
