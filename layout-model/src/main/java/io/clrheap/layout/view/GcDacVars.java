package io.clrheap.layout.view;

/**
 * {@code GcDacVars} ({@code g_gc_dac_vars}): what the GC publishes for the DAC (gcinterface.dac.h). After the
 * first four, every field is a pointer TO the GC variable (or null when the flavour lacks it).
 */
@Struct("GcDacVars")
public interface GcDacVars extends StructView {

    @Field("major_version_number") int majorVersion();

    @Field("minor_version_number") int minorVersion();

    /** The stride of a generation table. */
    @Field("generation_size") long generationSize();

    @Field("total_generation_count") long totalGenerationCount();

    @Field("build_variant") long buildVariant();

    @Field("built_with_svr") long builtWithSvr();

    /** Workstation: {@code &generation_table[0]}. */
    @Field("generation_table") long generationTable();

    @Field("max_gen") long maxGen();

    /** Workstation: pointer to the {@code heap_segment*} variable. */
    @Field("ephemeral_heap_segment") long ephemeralHeapSegment();

    /** Workstation: pointer to the {@code uint8_t*} variable. */
    @Field("alloc_allocated") long allocAllocated();

    /** Workstation: pointer to the {@code CFinalize*} variable. */
    @Field("finalize_queue") long finalizeQueue();

    /** Server: pointer to {@code int n_heaps}. */
    @Field("n_heaps") long nHeaps();

    /** Server: pointer to {@code gc_heap** g_heaps}. */
    @Field("g_heaps") long gHeaps();

    @Field("gc_structures_invalid_cnt") long gcStructuresInvalidCnt();

    @Field("handle_table_map") long handleTableMap();

    /** Server: {@code int32[]} of gc_heap field offsets, in the order of the profile's {@code dacFieldOrder.gc_heap}. */
    @Field("gc_heap_field_offsets") long gcHeapFieldOffsets();

    /** {@code int32[3]}: allocation_context, start_segment, allocation_start (-1 with regions). */
    @Field("generation_field_offsets") long generationFieldOffsets();

    @Field("bookkeeping_start") long bookkeepingStart();

    @Field("total_bookkeeping_elements") int totalBookkeepingElements();

    @Field("count_free_region_kinds") int countFreeRegionKinds();

    @Field("card_table_info_size") long cardTableInfoSize();

    /** Since GcDacVars 2.4 (.NET 10). */
    @Field(value = "dynamic_adaptation_mode", optional = true) long dynamicAdaptationMode();

    @Has("dynamic_adaptation_mode") boolean hasDynamicAdaptationMode();

    interface Writable extends GcDacVars, WritableStructView {
        @Field("major_version_number") void majorVersion(int value);

        @Field("minor_version_number") void minorVersion(int value);

        @Field("generation_size") void generationSize(long value);

        @Field("total_generation_count") void totalGenerationCount(long value);

        @Field("build_variant") void buildVariant(long value);

        @Field("built_with_svr") void builtWithSvr(long value);

        @Field("generation_table") void generationTable(long value);

        @Field("max_gen") void maxGen(long value);

        @Field("ephemeral_heap_segment") void ephemeralHeapSegment(long value);

        @Field("alloc_allocated") void allocAllocated(long value);

        @Field("finalize_queue") void finalizeQueue(long value);

        @Field("n_heaps") void nHeaps(long value);

        @Field("g_heaps") void gHeaps(long value);

        @Field("gc_structures_invalid_cnt") void gcStructuresInvalidCnt(long value);

        @Field("handle_table_map") void handleTableMap(long value);

        @Field("gc_heap_field_offsets") void gcHeapFieldOffsets(long value);

        @Field("generation_field_offsets") void generationFieldOffsets(long value);

        @Field("bookkeeping_start") void bookkeepingStart(long value);

        @Field("total_bookkeeping_elements") void totalBookkeepingElements(int value);

        @Field("count_free_region_kinds") void countFreeRegionKinds(int value);

        @Field("card_table_info_size") void cardTableInfoSize(long value);

        @Field(value = "dynamic_adaptation_mode", optional = true) void dynamicAdaptationMode(long value);
    }
}
