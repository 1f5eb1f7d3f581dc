package io.clrheap.layout.view;

/**
 * {@code GCHeap}: the GC's {@code IGCHeap} object (gcimpl.h). Word 0 is the vtable; under server GC there is one
 * per heap and {@code pGenGCHeap} points to its {@code gc_heap}.
 */
@Struct("GCHeap")
public interface GcHeap extends StructView {

    @Field("vtable") long vtable();

    /** Server GC only: the heap's {@code gc_heap*}. */
    @Field(value = "pGenGCHeap", optional = true) long genGcHeap();

    @Has("pGenGCHeap") boolean hasGenGcHeap();

    interface Writable extends GcHeap, WritableStructView {
        @Field("vtable") void vtable(long value);

        @Field(value = "pGenGCHeap", optional = true) void genGcHeap(long value);
    }
}
