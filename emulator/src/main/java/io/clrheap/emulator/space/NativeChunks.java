package io.clrheap.emulator.space;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * Where an {@link AddressSpace}'s chunks come from: 64 MiB slabs of anonymous memory mapped with {@code mmap}
 * (zero pages that cost nothing until written, outside the Java heap and outside the JVM's direct-memory limit, so
 * the heap an emulator builds is not bounded by {@code -Xmx}), unmapped when the space is no longer reachable. Where
 * {@code mmap} is not found (not a POSIX libc), chunks come from an {@link Arena} instead.
 */
final class NativeChunks {

    static final long SLAB_SIZE = 64L << 20;
    // <sys/mman.h> on Linux x64: PROT_READ | PROT_WRITE; MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE
    private static final int PROT_READ_WRITE = 0x1 | 0x2;
    private static final int MAP_PRIVATE_ANONYMOUS_NORESERVE = 0x02 | 0x20 | 0x4000;

    private static final Optional<MethodHandle> MMAP = find("mmap", FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS,
            ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
    /** madvise(MADV_HUGEPAGE): transparent huge pages where the system allows them (fewer page faults while a heap is written). */
    private static final int MADV_HUGEPAGE = 14;
    private static final Optional<MethodHandle> MADVISE = find("madvise", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
            ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    private static final Optional<MethodHandle> MUNMAP = find("munmap", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
            ValueLayout.JAVA_LONG));

    private final Arena arena = Arena.ofAuto();
    private final int chunkSize;
    private MemorySegment slab;
    private long used;

    NativeChunks(int chunkSize) {
        this.chunkSize = chunkSize;
    }

    private static Optional<MethodHandle> find(String name, FunctionDescriptor descriptor) {
        Linker linker = Linker.nativeLinker();
        return linker.defaultLookup().find(name).map(symbol -> linker.downcallHandle(symbol, descriptor));
    }

    /** A zeroed chunk of {@code chunkSize} bytes. */
    MemorySegment allocate() {
        if (MMAP.isEmpty() || MUNMAP.isEmpty()) {
            return arena.allocate(chunkSize, 64);
        }
        if (slab == null || used + chunkSize > SLAB_SIZE) {
            slab = map();
            used = 0;
        }
        MemorySegment chunk = slab.asSlice(used, chunkSize);
        used += chunkSize;
        return chunk;
    }

    private MemorySegment map() {
        MemorySegment address;
        try {
            address = (MemorySegment) MMAP.get().invokeExact(MemorySegment.NULL, SLAB_SIZE, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS_NORESERVE, -1, 0L);
        } catch (Throwable e) {
            throw new IllegalStateException("mmap of " + SLAB_SIZE + " bytes failed", e);
        }
        if (address.address() == -1L) { // MAP_FAILED
            throw new IllegalStateException(String.format("cannot map %d MiB more for the emulated process (mmap failed)", SLAB_SIZE >> 20));
        }
        if (MADVISE.isPresent()) {
            try {
                int ignored = (int) MADVISE.get().invokeExact(address, SLAB_SIZE, MADV_HUGEPAGE); // advice only: failing is fine
            } catch (Throwable e) {
                // advice only
            }
        }
        // unmapped when the arena, held by this object and so by its address space, is no longer reachable
        return address.reinterpret(SLAB_SIZE, arena, NativeChunks::unmap);
    }

    private static void unmap(MemorySegment slab) {
        try {
            int ignored = (int) MUNMAP.get().invokeExact(slab, SLAB_SIZE);
        } catch (Throwable e) {
            // nothing to do in a cleaner: the mapping stays until the process ends
        }
    }
}
