package io.clrheap.layout.view;

/** {@code HandleTableMap} ({@code g_HandleTableMap}): a chain of bucket arrays. */
@Struct("HandleTableMap")
public interface HandleTableMap extends StructView {

    /** {@code HandleTableBucket*[handle.initial_table_array_size]}. */
    @Field("pBuckets") long buckets();

    @Field("pNext") long next();

    @Field("dwMaxIndex") long maxIndex();

    interface Writable extends HandleTableMap, WritableStructView {
        @Field("pBuckets") void buckets(long value);

        @Field("pNext") void next(long value);

        @Field("dwMaxIndex") void maxIndex(long value);
    }
}
