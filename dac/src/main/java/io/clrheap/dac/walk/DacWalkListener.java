package io.clrheap.dac.walk;

import io.clrheap.dac.dbi.HeapObject;
import io.clrheap.dac.sos.FieldDescData;
import io.clrheap.dac.sos.GcHeapData;
import io.clrheap.dac.sos.GcHeapDetails;
import io.clrheap.dac.sos.GenerationData;
import io.clrheap.dac.sos.HeapSegmentData;
import io.clrheap.dac.sos.MethodTableData;
import io.clrheap.dac.sos.MethodTableFieldData;
import io.clrheap.dac.sos.ThreadData;
import io.clrheap.dac.sos.UsefulGlobals;
import java.util.List;

/**
 * What a walk through the DAC answers, in the order it is asked: the same events in the child process that drives the
 * DAC (written to the parent) and in the parent (read back). Default methods ignore the event.
 */
public interface DacWalkListener {

    default void gcHeapData(GcHeapData data) {
    }

    default void usefulGlobals(UsefulGlobals globals) {
    }

    default void thread(ThreadData thread) {
    }

    /** ISOSDacInterface12's global allocation context (workstation GC's shared one; 0, 0 when unused). */
    default void globalAllocationContext(long pointer, long limit) {
    }

    /** Heap {@code index}: its details and its whole generation table (POH included when the DAC has it). */
    default void heap(int index, GcHeapDetails details, List<GenerationData> generations) {
    }

    /** A region (or segment) of heap {@code heap}, on generation {@code generation}'s list (0..4). */
    default void segment(int heap, int generation, HeapSegmentData segment) {
    }

    /** A MethodTable met for the first time: what GetMethodTableData said. */
    default void methodTable(long methodTable, MethodTableData data) {
    }

    /**
     * A field listing (not a walk): {@code methodTable}'s GetMethodTableData and GetMethodTableFieldData, and its
     * parent's instance-field count (0 without a parent), where SOS's DisplayFields starts counting the class's own.
     */
    default void methodTableFields(long methodTable, MethodTableData data, MethodTableFieldData fields, int parentInstanceFields) {
    }

    /** A field listing: the next FieldDesc of {@code methodTable}'s list, as GetFieldDescData read it. */
    default void fieldDesc(long methodTable, long address, FieldDescData data) {
    }

    /** The name GetMethodTableName gave a MethodTable (asked once the walk is over). */
    default void typeName(long methodTable, String name) {
    }

    /** The heap walk is complete (what follows, type names, is extra). */
    default void walkDone() {
    }

    /** SOS path: an object (free objects included), size unaligned, on heap {@code heap}, generation {@code generation}. */
    default void object(long address, long methodTable, long size, int heap, int generation) {
    }

    /** The DAC's own heap walker (IDacDbiInterface::WalkHeap): an object, size rounded up to 8, free objects skipped. */
    default void heapObject(HeapObject object) {
    }

    /** A DAC call failed (the walk goes on where it can). */
    default void callFailed(String call, long argument, int hresult) {
    }

    /** Reads of target memory the dump could not answer: how many, and the first few. */
    default void failedReads(long count, List<String> first) {
    }

    /** A note on how the walk went (phase, counts). */
    default void note(String text) {
    }
}
