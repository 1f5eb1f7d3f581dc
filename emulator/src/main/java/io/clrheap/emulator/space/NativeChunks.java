package io.clrheap.emulator.space;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * Where an {@link AddressSpace}'s chunks come from: the C library's allocator, {@code calloc}, a zeroed chunk at a
 * time (outside the Java heap and outside the JVM's direct-memory limit, so the heap an emulator builds is not bounded
 * by {@code -Xmx}), handed back with {@code free} when the space is no longer reachable. Where the C allocator is not
 * found, chunks come from an {@link Arena} instead.
 *
 * <p>Why the C allocator and not {@code mmap}: memory a build gives back stays with the allocator and the next build in
 * the process takes it again, already mapped, zeroing it in user space; fresh anonymous memory, mapped for every build
 * and unmapped after it, cost the kernel a page fault and the zeroing of every page on every build, and with
 * transparent huge pages asked for ({@code MADV_HUGEPAGE}) direct compaction and reclaim whenever the machine had no free
 * huge page (the emulator benchmark's slow, bimodal shots: BENCHMARKS.md, "Emulator: the profile and the fix").
 */
final class NativeChunks {

    /** Chunks are given back in batches of this many bytes: one cleanup action per batch, not one per chunk. */
    static final long SLAB_SIZE = 64L << 20;

    private static final Optional<MethodHandle> CALLOC = find("calloc", FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
            ValueLayout.JAVA_LONG));
    private static final Optional<MethodHandle> FREE = find("free", FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));

    private final Arena arena = Arena.ofAuto();
    private final int chunkSize;
    private final int chunksPerBatch;
    /** The addresses of the current batch's chunks, freed together once the arena is unreachable. */
    private long[] batch;
    private int inBatch;

    NativeChunks(int chunkSize) {
        this.chunkSize = chunkSize;
        this.chunksPerBatch = (int) Math.max(1, SLAB_SIZE / chunkSize);
    }

    private static Optional<MethodHandle> find(String name, FunctionDescriptor descriptor) {
        Linker linker = Linker.nativeLinker();
        return linker.defaultLookup().find(name).map(symbol -> linker.downcallHandle(symbol, descriptor));
    }

    /** A zeroed chunk of {@code chunkSize} bytes. */
    MemorySegment allocate() {
        if (CALLOC.isEmpty() || FREE.isEmpty()) {
            return arena.allocate(chunkSize, 64);
        }
        if (batch == null || inBatch == batch.length) {
            long[] addresses = new long[chunksPerBatch];
            // one cleanup per batch: it frees the chunks the batch holds when the arena is unreachable (it must not
            // capture this object, which holds the arena)
            MemorySegment.NULL.reinterpret(0, arena, ignored -> freeAll(addresses));
            batch = addresses;
            inBatch = 0;
        }
        MemorySegment chunk;
        try {
            chunk = (MemorySegment) CALLOC.get().invokeExact(1L, (long) chunkSize);
        } catch (Throwable e) {
            throw new IllegalStateException("calloc of " + chunkSize + " bytes failed", e);
        }
        if (chunk.address() == 0) {
            throw new IllegalStateException(String.format("cannot allocate %d KiB more for the emulated process (calloc failed)", chunkSize >> 10));
        }
        batch[inBatch++] = chunk.address();
        return chunk.reinterpret(chunkSize, arena, null);
    }

    private static void freeAll(long[] addresses) {
        for (long address : addresses) {
            if (address == 0) {
                break; // the rest of a batch never filled
            }
            try {
                FREE.get().invokeExact(MemorySegment.ofAddress(address));
            } catch (Throwable e) {
                // nothing to do in a cleaner: the chunk stays allocated until the process ends
            }
        }
    }
}
