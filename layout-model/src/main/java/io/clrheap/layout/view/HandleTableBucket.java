package io.clrheap.layout.view;

/** {@code HandleTableBucket}: one {@code HandleTable*} per heap. */
@Struct("HandleTableBucket")
public interface HandleTableBucket extends StructView {

    /** {@code HandleTable*[n]}. */
    @Field("pTable") long tables();

    @Field("HandleTableIndex") long index();

    interface Writable extends HandleTableBucket, WritableStructView {
        @Field("pTable") void tables(long value);

        @Field("HandleTableIndex") void index(long value);
    }
}
