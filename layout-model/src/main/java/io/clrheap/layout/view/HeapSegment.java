package io.clrheap.layout.view;

/** {@code heap_segment}: a region (or segment) descriptor of the GC (gcpriv.h; prefix = dac_heap_segment). */
@Struct("heap_segment")
public interface HeapSegment extends StructView {

    /** End of the objects (lags behind {@code alloc_allocated} on the ephemeral region). */
    @Field("allocated") long allocated();

    @Field("committed") long committed();

    @Field("reserved") long reserved();

    @Field("used") long used();

    /** The first object's address. */
    @Field("mem") long mem();

    /** Bits {@code heap_segment.flags.*} of the profile's constants. */
    @Field("flags") long flags();

    /** The next region of the same generation, or 0. */
    @Field("next") long next();

    @Field("background_allocated") long backgroundAllocated();

    /** The owning {@code gc_heap*}: server GC only. */
    @Field(value = "heap", optional = true) long heap();

    @Has("heap") boolean hasHeap();

    @Field("plan_allocated") long planAllocated();

    /** The region's generation (a region's generation is also the list it hangs from). */
    @Field("gen_num") int genNum();

    @Field("plan_gen_num") int planGenNum();

    /** The writable twin the emulator fills. */
    interface Writable extends HeapSegment, WritableStructView {
        @Field("allocated") void allocated(long value);

        @Field("committed") void committed(long value);

        @Field("reserved") void reserved(long value);

        @Field("used") void used(long value);

        @Field("mem") void mem(long value);

        @Field("flags") void flags(long value);

        @Field("next") void next(long value);

        @Field("background_allocated") void backgroundAllocated(long value);

        @Field(value = "heap", optional = true) void heap(long value);

        @Field("plan_allocated") void planAllocated(long value);

        @Field("gen_num") void genNum(int value);

        @Field("plan_gen_num") void planGenNum(int value);
    }
}
