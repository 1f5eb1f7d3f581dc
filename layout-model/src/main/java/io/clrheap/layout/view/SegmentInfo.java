package io.clrheap.layout.view;

/** {@code segment_info}: what {@code RegisterFrozenSegment} is given. */
@Struct("segment_info")
public interface SegmentInfo extends StructView {

    @Field("pvMem") long mem();

    @Field("ibFirstObject") long firstObject();

    @Field("ibAllocated") long allocated();

    @Field("ibCommit") long commit();

    @Field("ibReserved") long reserved();

    interface Writable extends SegmentInfo, WritableStructView {
        @Field("pvMem") void mem(long value);

        @Field("ibFirstObject") void firstObject(long value);

        @Field("ibAllocated") void allocated(long value);

        @Field("ibCommit") void commit(long value);

        @Field("ibReserved") void reserved(long value);
    }
}
