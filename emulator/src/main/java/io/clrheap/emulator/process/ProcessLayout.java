package io.clrheap.emulator.process;

/**
 * Where an emulated process keeps what: address ranges chosen like a Linux x64 .NET process's (the runtime module
 * high in the mmap area, the malloc heap low, the GC's reserve range with regions carved at region alignment).
 * Fixed values, so that the same scenario gives the same bytes.
 */
public final class ProcessLayout {

    /** The runtime module (libcoreclr.so): 64 KiB aligned, like a mapped shared object. */
    public static final long MODULE_BASE = 0x7f3a_1000_0000L;
    /**
     * The assemblies' images, mapped from their files (CoreLib's first, the scenario's assembly 64 KiB aligned after
     * it), below the runtime module as the 9.0.1 host maps them (net9-withheap: CoreLib at 0x7fe350e60000, under
     * libcoreclr.so at 0x7fe3cfe00000).
     */
    public static final long ASSEMBLY_IMAGES = 0x7f3a_0000_0000L;
    /**
     * A standalone GC module ({@code libclrgc.so}, segments mode): mapped above the runtime module, its .bss holding the
     * GC's statics GcDacVars points at, as in the real dumps (docs/reference/discovery.md section 14).
     */
    public static final long GC_MODULE_BASE = 0x7f3a_3000_0000L;
    public static final long ASSEMBLY_IMAGES_SIZE = 64L << 20;
    /** The malloc heap: Thread objects, ThreadStore, gc_heap and GCHeap objects, the free-object MethodTable, frozen segment descriptors. */
    public static final long NATIVE_HEAP = 0x5600_2000_0000L;
    public static final long NATIVE_HEAP_SIZE = 256L << 20;
    /** A native-call session's own malloc arena (as glibc maps another arena): the blocks its allocate() hands out. */
    public static final long CALL_ARENA = 0x5600_4000_0000L;
    public static final long CALL_ARENA_SIZE = 16L << 20;
    /** Where the function pointers of a session's callbacks point; never mapped as memory. */
    public static final long CALL_TRAMPOLINES = 0x5600_5000_0000L;
    /** Loader heaps: MethodTables and EEClasses. */
    public static final long LOADER_HEAP = 0x7f39_0000_0000L;
    public static final long LOADER_HEAP_SIZE = 64L << 20;
    /*
     * The GC's bookkeeping (card table ... region map with every region's heap_segment ... mark array) lies right
     * below GC_RESERVE, as in the real dumps; its size depends on the build's heap_segment: GcBookkeeping.of(layout).
     */
    /** The GC's reserve range, [g_lowest_address, g_highest_address): every region is carved from it at region alignment. */
    public static final long GC_RESERVE = 0x7e20_0000_0000L;
    public static final long GC_RESERVE_SIZE = 256L << 30;
    /** The frozen (non-GC) heap: outside [g_lowest_address, g_highest_address), like the runtime's FOH; its segments follow one another from here. */
    public static final long FROZEN_HEAP = 0x7f38_0000_0000L;
    /** The frozen heap's range: 4 GiB, up to the loader heap. */
    public static final long FROZEN_HEAP_SIZE = 4L << 30;
    /** Unmapped space between two frozen segments (each is a reservation of its own). */
    public static final long FROZEN_SEGMENT_GAP = 64L << 10;
    /** Per-thread blocks of .NET 9/10 (RuntimeThreadLocals live in TLS, away from Thread objects). */
    public static final long THREAD_LOCALS = 0x7f37_0000_0000L;
    public static final long THREAD_LOCALS_SIZE = 16L << 20;

    /** Handle table segments: 64 KiB each, 64 KiB aligned (a handle's segment = handle & ~0xffff). */
    public static final long HANDLE_SEGMENTS = 0x7f36_0000_0000L;
    public static final long HANDLE_SEGMENTS_SIZE = 64L << 20;

    /**
     * The threads' stacks, in the mmap area like glibc's thread stacks (pthread_create maps each, its guard page below
     * it): thread {@code i}'s stack is {@code [THREAD_STACKS + i * THREAD_STACK_STRIDE + THREAD_STACK_GUARD, + THREAD_STACK_SIZE)}.
     * The guard gap between two stacks is never mapped, so a dump keeps each stack a range of its own: a walker that
     * takes the end of the range holding {@code rsp} as the stack's end (an ELF core records no stack bounds) finds it.
     */
    public static final long THREAD_STACKS = 0x7f35_0000_0000L;
    /** A thread stack's bytes: 64 KiB (one chunk of the emulator's address space), far less than glibc's 8 MiB default. */
    public static final long THREAD_STACK_SIZE = 64L << 10;
    /** The unmapped gap below each stack, as big as the stack so that every stack starts at a 64 KiB boundary. */
    public static final long THREAD_STACK_GUARD = 64L << 10;
    public static final long THREAD_STACK_STRIDE = THREAD_STACK_SIZE + THREAD_STACK_GUARD;

    /** Bytes of a new allocation context: the runtime hands out about 8 KiB at a time (allocation quantum). */
    public static final long ALLOCATION_QUANTUM = 8192;

    private ProcessLayout() {
    }
}
