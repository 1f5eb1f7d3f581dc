package io.clrheap.layout.view;

/** The {@code IGCHeap} vtable; only the slots heap walkers call are described. */
@Struct("IGCHeapVtable")
public interface GcHeapVtable extends StructView {

    /**
     * Slot 69: {@code void DiagDescrGenerations(gen_walk_fn fn, void* context)}, which calls
     * {@code fn(context, generation, range_start, range_end, range_reserved)} for every region.
     */
    @Field("DiagDescrGenerations") long diagDescrGenerations();

    /**
     * Slot 73: {@code segment_handle RegisterFrozenSegment(segment_info*)}: a new read-only segment at the head of
     * heap 0's gen2 list; what {@code GC._RegisterFrozenSegment} calls.
     */
    @Field("RegisterFrozenSegment") long registerFrozenSegment();

    /** Slot 74: {@code void UnregisterFrozenSegment(segment_handle)}: takes a registered segment out of the list again. */
    @Field("UnregisterFrozenSegment") long unregisterFrozenSegment();

    interface Writable extends GcHeapVtable, WritableStructView {
        @Field("DiagDescrGenerations") void diagDescrGenerations(long value);

        @Field("RegisterFrozenSegment") void registerFrozenSegment(long value);

        @Field("UnregisterFrozenSegment") void unregisterFrozenSegment(long value);
    }
}
