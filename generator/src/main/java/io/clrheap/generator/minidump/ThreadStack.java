package io.clrheap.generator.minidump;

import io.clrheap.emulator.truth.GroundTruth;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The stack and thread environment block the minidump gives one thread of the process. The emulator builds no
 * native stacks, so each thread gets a small one here, in an area of its own below the process's memory: a 4 KiB
 * TEB page whose NT_TIB names the stack, and the top 16 KiB of a 1 MiB stack, zero-filled, with the stack pointer
 * inside it. Both are in the dump's memory (the Memory64List), and the thread list's stack descriptor points at the
 * same bytes, as a full-memory dump of a real process has them.
 *
 * @param threadId  the thread's OS id (the ground truth's)
 * @param teb       the TEB page's address
 * @param stackBase the stack's start in the dump (its lowest captured address)
 * @param stackTop  the address just past the stack (NT_TIB.StackBase)
 * @param rsp       the stack pointer the thread's context holds
 */
record ThreadStack(long threadId, long teb, long stackBase, long stackTop, long rsp) {

    /** Where the threads' blocks start: user-mode addresses well below every range the emulator reserves. */
    static final long AREA = 0x0000_00a0_0000_0000L;
    /** One block per thread: the TEB page at its start, the stack at its end. */
    static final long SLOT = 1L << 20;
    static final int TEB_SIZE = 0x1000;
    static final int STACK_CAPTURED = 0x4000;
    /** How far below the top of the stack the stack pointer is: the frames of a thread waiting in the runtime. */
    static final long FRAMES = 0x1000;

    static List<ThreadStack> plan(List<GroundTruth.ThreadInfo> threads) {
        List<ThreadStack> stacks = new ArrayList<>();
        for (int i = 0; i < threads.size(); i++) {
            long slot = AREA + i * SLOT;
            long top = slot + SLOT;
            stacks.add(new ThreadStack(threads.get(i).osId(), slot, top - STACK_CAPTURED, top, top - FRAMES));
        }
        return stacks;
    }

    long stackSize() {
        return stackTop - stackBase;
    }

    /**
     * The TEB page: NT_TIB (ExceptionList, StackBase, StackLimit, SubSystemTib, FiberData, ArbitraryUserPointer,
     * Self) and the TEB's ClientId (UniqueProcess at 0x40, UniqueThread at 0x48), x64 offsets.
     */
    byte[] tebBytes(long processId) {
        ByteBuffer b = ByteBuffer.allocate(TEB_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(0x08, stackTop);
        b.putLong(0x10, stackBase);
        b.putLong(0x30, teb);
        b.putLong(0x40, processId);
        b.putLong(0x48, threadId);
        return b.array();
    }
}
