package io.clrheap.layout.view;

/** {@code gc_alloc_context}: a bump-pointer allocation window (gcinterface.h). */
@Struct("gc_alloc_context")
public interface AllocContext extends StructView {

    @Field("alloc_ptr") long allocPtr();

    @Field("alloc_limit") long allocLimit();

    @Field("alloc_bytes") long allocBytes();

    @Field("alloc_bytes_uoh") long allocBytesUoh();

    /** Server GC: the {@code GCHeap*} this thread allocates on; 0 under workstation GC. */
    @Field("gc_reserved_1") long gcReserved1();

    /** Server GC: the home heap's {@code GCHeap*}. */
    @Field("gc_reserved_2") long gcReserved2();

    @Field("alloc_count") int allocCount();

    interface Writable extends AllocContext, WritableStructView {
        @Field("alloc_ptr") void allocPtr(long value);

        @Field("alloc_limit") void allocLimit(long value);

        @Field("alloc_bytes") void allocBytes(long value);

        @Field("alloc_bytes_uoh") void allocBytesUoh(long value);

        @Field("gc_reserved_1") void gcReserved1(long value);

        @Field("gc_reserved_2") void gcReserved2(long value);

        @Field("alloc_count") void allocCount(int value);
    }
}
