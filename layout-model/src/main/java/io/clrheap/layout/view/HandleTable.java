package io.clrheap.layout.view;

/** {@code HandleTable}: a heap's handle table; its segments hold the handles. */
@Struct("HandleTable")
public interface HandleTable extends StructView {

    @Field("pSegmentList") long segmentList();

    interface Writable extends HandleTable, WritableStructView {
        @Field("pSegmentList") void segmentList(long value);
    }
}
