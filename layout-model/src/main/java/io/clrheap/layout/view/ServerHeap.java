package io.clrheap.layout.view;

/**
 * {@code gc_heap} under server GC: one object per heap, listed by {@code gc_heap::g_heaps}. (Under workstation GC
 * its members are statics that {@code GcDacVars} points to directly.) Field offsets are those the runtime
 * publishes in {@code GcDacVars.gc_heap_field_offsets}.
 */
@Struct("gc_heap")
public interface ServerHeap extends StructView {

    /** End of the ephemeral region's objects. */
    @Field("alloc_allocated") long allocAllocated();

    @Field("ephemeral_heap_segment") long ephemeralHeapSegment();

    /** The heap's {@code CFinalize*}. */
    @Field("finalize_queue") long finalizeQueue();

    /** gen0, gen1, gen2, LOH, POH. */
    @Field("generation_table") Generation generationTable(int generation);

    interface Writable extends ServerHeap, WritableStructView {
        @Field("alloc_allocated") void allocAllocated(long value);

        @Field("ephemeral_heap_segment") void ephemeralHeapSegment(long value);

        @Field("finalize_queue") void finalizeQueue(long value);

        @Override
        @Field("generation_table") Generation.Writable generationTable(int generation);
    }
}
