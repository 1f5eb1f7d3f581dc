package io.clrheap.emulator.calls;

import io.clrheap.emulator.gc.GcStatics;
import io.clrheap.emulator.process.ProcessLayout;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.Memory;
import io.clrheap.memory.WritableMemory;
import io.clrheap.process.NativeCallException;
import io.clrheap.process.NativeCallback;
import io.clrheap.process.NativeCalls;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One session of native calls into an emulated process. A call to a vtable slot's code runs the emulated GC
 * function of that slot ({@link EmulatedGcHeap}); a call to a callback's function pointer runs the callback.
 * Anything else has no code the emulator can run and fails with its address.
 */
public final class EmulatedCalls implements NativeCalls {

    /** Bytes between two callbacks' function pointers. */
    private static final long TRAMPOLINE_STRIDE = 16;
    /** Callbacks one session may register: a walker needs one or two. */
    private static final int MAX_CALLBACKS = 4096;
    /** Nested calls (a callback calling back into the GC): bounded, like a thread's stack. */
    private static final int MAX_DEPTH = 64;

    private final GcStatics statics;
    private final SessionMemory memory;
    private final EmulatedGcHeap gc;
    private final List<NativeCallback> callbacks = new ArrayList<>();
    /** Blocks of the arena handed out and not freed: address → size. */
    private final Map<Long, Long> blocks = new HashMap<>();
    private long arenaNext = ProcessLayout.CALL_ARENA;
    private int depth;

    /**
     * A session over a built process.
     *
     * @param layout  the profile the process was built with
     * @param process the process memory, left as it is: the session writes into copies of the pages it changes
     * @param statics where the emulated GC's code and statics are
     */
    public EmulatedCalls(RuntimeLayout layout, Memory process, GcStatics statics) {
        this.statics = statics;
        this.memory = new SessionMemory(process);
        this.gc = new EmulatedGcHeap(layout, statics, memory, this);
    }

    @Override
    public WritableMemory memory() {
        return memory;
    }

    @Override
    public long call(long function, long... arguments) {
        if (depth >= MAX_DEPTH) {
            throw new NativeCallException(function, "more than " + MAX_DEPTH + " nested native calls");
        }
        depth++;
        try {
            long trampoline = function - ProcessLayout.CALL_TRAMPOLINES;
            if (trampoline >= 0 && trampoline % TRAMPOLINE_STRIDE == 0 && trampoline / TRAMPOLINE_STRIDE < callbacks.size()) {
                return callbacks.get((int) (trampoline / TRAMPOLINE_STRIDE)).invoke(arguments.clone());
            }
            int slot = statics.slotAt(function);
            if (slot < 0) {
                throw new NativeCallException(function, "no code the emulated process can run here: neither an IGCHeap vtable slot's code"
                        + " (0x" + Long.toHexString(statics.code()) + " onwards) nor a callback of this session");
            }
            return gc.run(slot, function, arguments);
        } finally {
            depth--;
        }
    }

    @Override
    public long callback(NativeCallback callback) {
        if (callbacks.size() >= MAX_CALLBACKS) {
            throw new NativeCallException(ProcessLayout.CALL_TRAMPOLINES, "more than " + MAX_CALLBACKS + " callbacks in one session");
        }
        callbacks.add(callback);
        return ProcessLayout.CALL_TRAMPOLINES + TRAMPOLINE_STRIDE * (callbacks.size() - 1);
    }

    @Override
    public long allocate(long size) {
        if (size <= 0 || size > ProcessLayout.CALL_ARENA_SIZE) {
            throw new NativeCallException(size, "malloc of " + size + " bytes: a session's blocks are 1 byte to "
                    + (ProcessLayout.CALL_ARENA_SIZE >> 20) + " MiB");
        }
        long at = (arenaNext + 15) & -16;
        if (at + size > ProcessLayout.CALL_ARENA + ProcessLayout.CALL_ARENA_SIZE) {
            throw new NativeCallException(at, "the session's malloc arena is full");
        }
        arenaNext = at + size;
        memory.mapArena(at, size);
        blocks.put(at, size);
        return at;
    }

    @Override
    public void free(long address) {
        Long size = blocks.remove(address);
        if (size == null) {
            throw new NativeCallException(address, "free of a block this session did not allocate (or freed already)");
        }
        memory.write(address, new byte[Math.toIntExact(size)], 0, Math.toIntExact(size));
    }
}
