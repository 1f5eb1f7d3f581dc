package io.clrheap.generator.minidump;

import io.clrheap.emulator.truth.CpuRegister;
import io.clrheap.emulator.truth.GroundTruth;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the minidump says of one thread of the process: its stack and registers, the emulated thread's own
 * ({@link io.clrheap.emulator.truth.ThreadStack}: a mapping of the process's memory, among the dump's memory like any
 * other), and a TEB page the writer adds, in an area of its own below the process's memory, whose NT_TIB names that
 * stack. The thread list's stack descriptor covers the live part, {@code [rsp, base)}, as dbghelp captures a thread's
 * stack from its stack pointer up.
 *
 * @param threadId  the thread's OS id (the ground truth's)
 * @param teb       the TEB page's address
 * @param limit     the stack's lowest address (NT_TIB.StackLimit: all of the stack is committed)
 * @param base      the address just past the stack (NT_TIB.StackBase)
 * @param registers the thread's context
 */
record ThreadStack(long threadId, long teb, long limit, long base, Map<CpuRegister, Long> registers) {

    /** Where the TEBs start: user-mode addresses well below every range the emulator reserves. */
    static final long AREA = 0x0000_00a0_0000_0000L;
    /** One TEB per 64 KiB (the allocation granularity). */
    static final long SLOT = 1L << 16;
    static final int TEB_SIZE = 0x1000;

    /** The threads of the thread list, in thread-store order, each with the emulated stack of the same id. */
    static List<ThreadStack> plan(List<GroundTruth.ThreadInfo> threads, List<io.clrheap.emulator.truth.ThreadStack> stacks) {
        List<ThreadStack> planned = new ArrayList<>();
        for (int i = 0; i < threads.size(); i++) {
            long id = threads.get(i).osId();
            io.clrheap.emulator.truth.ThreadStack s = stacks.stream().filter(x -> x.osId() == id).findFirst()
                    .orElseThrow(() -> new IllegalStateException("thread " + id + " of the thread store has no stack"));
            planned.add(new ThreadStack(id, AREA + i * SLOT, s.limit(), s.base(), s.registers()));
        }
        return planned;
    }

    long rsp() {
        return registers.get(CpuRegister.RSP);
    }

    /** The bytes the thread list's stack descriptor covers: from rsp to the stack's base. */
    long capturedSize() {
        return base - rsp();
    }

    /**
     * The TEB page: NT_TIB (ExceptionList, StackBase, StackLimit, SubSystemTib, FiberData, ArbitraryUserPointer,
     * Self) and the TEB's ClientId (UniqueProcess at 0x40, UniqueThread at 0x48), x64 offsets.
     */
    byte[] tebBytes(long processId) {
        ByteBuffer b = ByteBuffer.allocate(TEB_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(0x08, base);
        b.putLong(0x10, limit);
        b.putLong(0x30, teb);
        b.putLong(0x40, processId);
        b.putLong(0x48, threadId);
        return b.array();
    }
}
