package io.clrheap.layout.view;

/** The 8-byte {@code ObjHeader} before an object (view it at object address − 8). */
@Struct("ObjectHeader")
public interface ObjectHeader extends StructView {

    @Field("SyncBlockValue") int syncBlockValue();

    interface Writable extends ObjectHeader, WritableStructView {
        @Field("SyncBlockValue") void syncBlockValue(int value);
    }
}
