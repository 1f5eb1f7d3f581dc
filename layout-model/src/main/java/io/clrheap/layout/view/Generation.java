package io.clrheap.layout.view;

/** {@code generation}: one entry of a heap's generation table (stride {@code GcDacVars.generation_size}). */
@Struct("generation")
public interface Generation extends StructView {

    @Field("allocation_context") AllocContext allocationContext();

    /** The first region of this generation's list. */
    @Field("start_segment") long startSegment();

    @Field("allocation_segment") long allocationSegment();

    @Field("tail_region") long tailRegion();

    /** The first read-only (frozen) segment ever inserted at the head of gen2's list. */
    @Field("tail_ro_region") long tailRoRegion();

    @Field("gen_num") int genNum();

    interface Writable extends Generation, WritableStructView {
        @Override
        @Field("allocation_context") AllocContext.Writable allocationContext();

        @Field("start_segment") void startSegment(long value);

        @Field("allocation_segment") void allocationSegment(long value);

        @Field("tail_region") void tailRegion(long value);

        @Field("tail_ro_region") void tailRoRegion(long value);

        @Field("gen_num") void genNum(int value);
    }
}
