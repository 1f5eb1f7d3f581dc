package io.clrheap.dac.sos;

/**
 * Sizes of the DAC's result structures on x64 (dacprivate.h, dotnet/runtime src/coreclr/inc; frozen since dev11, and
 * checked there by static_asserts where given): natural alignment, CLRDATA_ADDRESS 8 bytes, BOOL/DWORD/enum 4.
 */
final class SosStructs {

    /** DacpGcHeapData: bServerMode, bGcStructuresValid, HeapCount, g_max_generation */
    static final long GC_HEAP_DATA = 16;
    /** DacpUsefulGlobalsData: Array, String, Object, Exception, Free MethodTables */
    static final long USEFUL_GLOBALS = 40;
    /** DacpThreadStoreData (static_assert 0x38) */
    static final long THREAD_STORE_DATA = 0x38;
    /** DacpThreadData: ... nextThread at 96 */
    static final long THREAD_DATA = 104;
    /** DacpObjectData: ... CCW at 88 */
    static final long OBJECT_DATA = 96;
    /** DacpMethodTableData: ... bContainsPointers at 64, padded to 8 */
    static final long METHOD_TABLE_DATA = 72;
    /** DacpMethodTableFieldData: three WORD counts, FirstField at 8, two WORDs at 16 and 18, padded to 8 */
    static final long METHOD_TABLE_FIELD_DATA = 24;
    /**
     * DacpFieldDescData: Type 0, sigType 4, MTOfType 8, ModuleOfType 16, TokenOfType 24, mb 28, MTOfEnclosingClass 32,
     * dwOffset 40, bIsThreadLocal 44, bIsContextLocal 48, bIsStatic 52, NextField 56
     */
    static final long FIELD_DESC_DATA = 64;
    /** DacpGenerationData: start_segment, allocation_start, allocContextPtr, allocContextLimit */
    static final long GENERATION_DATA = 32;
    /** DacpGcHeapDetails: 9 addresses, generation_table[4], ephemeral_heap_segment, finalization_fill_pointers[7], 3 addresses */
    static final long GC_HEAP_DETAILS = 288;
    static final long DETAILS_GENERATION_TABLE = 72;
    static final int DAC_NUMBERGENERATIONS = 4;
    /** DacpHeapSegmentData: 11 eight-byte fields */
    static final long HEAP_SEGMENT_DATA = 88;

    private SosStructs() {
    }
}
