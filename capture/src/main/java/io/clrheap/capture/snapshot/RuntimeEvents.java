package io.clrheap.capture.snapshot;

/**
 * The events of the Microsoft-Windows-DotNETRuntime provider that the GC heap snapshot reads, by event id
 * (https://github.com/dotnet/runtime/blob/main/src/coreclr/vm/ClrEtwAll.man; docs/ipc-protocol.md section 8).
 */
final class RuntimeEvents {

    static final String PROVIDER = "Microsoft-Windows-DotNETRuntime";

    static final int GC_START = 1;
    static final int GC_END = 2;
    static final int GC_HEAP_STATS = 4;
    static final int GC_BULK_TYPE = 15;
    static final int GC_BULK_ROOT_EDGE = 16;
    static final int GC_BULK_ROOT_CWT_ELEMENT_EDGE = 17;
    static final int GC_BULK_NODE = 18;
    static final int GC_BULK_EDGE = 19;
    static final int GC_BULK_MOVED_OBJECT_RANGES = 22;
    static final int GC_GENERATION_RANGE = 23;
    static final int GC_BULK_ROOT_STATIC_VAR = 38;
    static final int GC_PER_HEAP_HISTORY = 204;
    static final int GC_GLOBAL_HEAP_HISTORY = 205;

    /** GCRootKind (the manifest's GCRootKindMap; docs/ipc-protocol.md section 8). */
    static String rootKind(int kind) {
        return switch (kind) {
            case 0 -> "Stack";
            case 1 -> "Finalizer";
            case 2 -> "Handle";
            case 3 -> "Older";
            case 4 -> "SizedRef";
            case 5 -> "Overflow";
            case 6 -> "DependentHandle";
            case 7 -> "NewFQ";
            case 8 -> "Steal";
            case 9 -> "BGC";
            default -> "Kind" + kind;
        };
    }

    private RuntimeEvents() {
    }
}
