package io.clrheap.layout.profile;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import java.util.ArrayList;
import java.util.List;

/** The structures a profile must describe for a heap walker and the emulator to work on that runtime. */
public final class RequiredStructures {

    private static final List<String> COMMON = List.of(
            "Thread", "ThreadStore", "gc_alloc_context", "GCHeap", "IGCHeapVtable", "generation", "heap_segment",
            "GcDacVars", "CFinalize", "HandleTableMap", "HandleTableBucket", "HandleTable", "TableSegment",
            "MethodTable", "Object", "ObjectHeader", "Array", "String", "DotNetRuntimeInfo", "segment_info");

    private RequiredStructures() {
    }

    public static List<String> of(RuntimeVersion version, GcFlavor gc) {
        List<String> required = new ArrayList<>(COMMON);
        if (gc == GcFlavor.SERVER) {
            required.add("gc_heap");
        }
        if (version.major() >= 9) {
            // the allocation context moved out of Thread into RuntimeThreadLocals; the contract descriptor appeared
            required.add("RuntimeThreadLocals");
            required.add("ContractDescriptor");
        }
        if (version.major() >= 10) {
            required.add("ee_alloc_context");
        }
        return List.copyOf(required);
    }
}
