package io.clrheap.emulator.gc;

/**
 * Where the emulated GC keeps what its own code reads: the code its {@code IGCHeap} vtable slots point to, and its
 * statics in the runtime module. Native calls into the emulated process ({@link io.clrheap.emulator.EmulatedRuntime#nativeCalls()})
 * run the GC's functions with these; walkers never see them.
 *
 * @param vtable          the {@code IGCHeap} vtable every {@code GCHeap} object points to
 * @param code            the code of slot 0; slot {@code n}'s code is at {@code code + n * CODE_STRIDE}
 * @param slots           how many slots the vtable has
 * @param heapCount       {@code gc_heap::n_heaps} (server GC; 0 under workstation GC)
 * @param heapArray       {@code gc_heap::g_heaps}, a pointer to the array of {@code gc_heap*} (server GC; else 0)
 * @param generationTable the static {@code generation_table} (workstation GC; 0 under server GC)
 * @param globalGcHeap    the {@code GCHeap} object {@code g_pGCHeap} points to
 * @param segments        whether the GC is the standalone segments GC ({@code libclrgc.so}), whose functions are not emulated
 */
public record GcStatics(long vtable, long code, int slots, long heapCount, long heapArray, long generationTable, long globalGcHeap,
                        boolean segments) {

    /** The runtime's own regions GC's statics. */
    public GcStatics(long vtable, long code, int slots, long heapCount, long heapArray, long generationTable, long globalGcHeap) {
        this(vtable, code, slots, heapCount, heapArray, generationTable, globalGcHeap, false);
    }

    /** Bytes of code per vtable slot in the emulated module's .text. */
    public static final long CODE_STRIDE = 16;

    /** The address of slot {@code slot}'s code. */
    public long codeOf(int slot) {
        return code + CODE_STRIDE * slot;
    }

    /** The slot whose code starts at {@code address}, or -1. */
    public int slotAt(long address) {
        long offset = address - code;
        if (offset < 0 || offset % CODE_STRIDE != 0 || offset / CODE_STRIDE >= slots) {
            return -1;
        }
        return (int) (offset / CODE_STRIDE);
    }

    /** Server GC: the statics are {@code n_heaps} and {@code g_heaps}. */
    public boolean server() {
        return heapCount != 0;
    }
}
