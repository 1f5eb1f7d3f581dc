package io.clrheap.walker.graph;

import io.clrheap.memory.Memory;
import io.clrheap.memory.MemoryRange;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.heap.ManagedThread;
import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.ProblemKind;
import io.clrheap.walker.source.OsThread;
import io.clrheap.walker.source.Register;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Stack and register roots without unwinding (docs/reference/object-graph.md, "Stack roots"): for each managed thread
 * of the thread store, the operating system's thread of the same id gives the registers the dump recorded; every
 * aligned word from its stack pointer up to the stack's end, and every general-purpose register, that holds the address
 * of an object, or an address inside one, is a root of that object. This is the GC's own conservative mode
 * ({@code DOTNET_gcConservative}); the precise roots the runtime reports (from each frame's GC info) are a subset of these
 * as long as every frame's live references are in its stack or registers, which is where a suspended thread keeps them.
 * A word below the stack pointer is never read: it is stale.
 *
 * <p>The stack's end is the dump's ({@link OsThread#stackBase()}, the TEB's on Windows), else the end of the memory
 * range holding the stack pointer, at most {@link #MAX_STACK_BYTES} above it.
 */
public final class StackRootScanner {

    /** No thread's stack is scanned further than this above its stack pointer (Linux's default main stack is 8 MiB). */
    static final long MAX_STACK_BYTES = 64L << 20;
    private static final int CHUNK = 1 << 16;
    private static final Register[] SCANNED_REGISTERS = {Register.RAX, Register.RBX, Register.RCX, Register.RDX, Register.RSI,
        Register.RDI, Register.RBP, Register.R8, Register.R9, Register.R10, Register.R11, Register.R12, Register.R13, Register.R14,
        Register.R15};

    private final Memory memory;
    private final HeapGraph graph;
    private final long lowest;
    private final long highest;

    public StackRootScanner(Memory memory, HeapGraph graph) {
        this.memory = memory;
        this.graph = graph;
        int n = graph.objects();
        this.lowest = n == 0 ? 0 : graph.address(0);
        this.highest = n == 0 ? 0 : graph.address(n - 1) + Math.max(graph.size(n - 1), 8);
    }

    /**
     * The result: the roots thread by thread in the thread store's order (its stack slots ascending, its registers in
     * {@link Register} order, its thread-static array), what was done per thread, and the problems met.
     */
    public record Result(List<Root> roots, List<ThreadScan> threads, List<Problem> problems) {
        public Result {
            roots = List.copyOf(roots);
            threads = List.copyOf(threads);
            problems = List.copyOf(problems);
        }
    }

    /** Scans the stack and registers of each of {@code managed} that has a thread in {@code os}. */
    public Result scan(List<ManagedThread> managed, List<OsThread> os) {
        Map<Long, OsThread> byId = new HashMap<>();
        for (OsThread t : os) {
            byId.putIfAbsent(t.osId(), t);
        }
        List<Root> roots = new ArrayList<>();
        List<ThreadScan> scans = new ArrayList<>();
        List<Problem> problems = new ArrayList<>();
        for (ManagedThread m : managed) {
            if (m.osId() == 0) {
                scans.add(new ThreadScan(m, 0, 0, 0, 0, "it has no operating system thread (not started, or ended)"));
                continue;
            }
            OsThread t = byId.get(m.osId());
            if (t == null) {
                scans.add(new ThreadScan(m, 0, 0, 0, 0, os.isEmpty() ? "no thread registers were recorded (a running process: walk it with --suspend, or capture it)"
                        : "the dump has no registers for OS thread " + m.osId() + " (it had ended?)"));
                continue;
            }
            scans.add(scan(m, t, roots, problems));
        }
        return new Result(roots, scans, problems);
    }

    private ThreadScan scan(ManagedThread m, OsThread t, List<Root> roots, List<Problem> problems) {
        long rsp = t.registers().rsp();
        int before = roots.size();
        long start = (rsp + 7) & ~7L;
        long end = stackEnd(t, start);
        if (end == 0) {
            problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, rsp, "stack", String.format(
                    "%s: its stack pointer 0x%x is not in the dump's memory; its stack is not scanned", m.describe(), rsp)));
            return new ThreadScan(m, rsp, 0, 0, 0, String.format("its stack at 0x%x is not in the dump", rsp));
        }
        if (Long.compareUnsigned(end - start, MAX_STACK_BYTES) > 0) {
            problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, start + MAX_STACK_BYTES, "stack", String.format(
                    "%s: its stack runs from 0x%x to 0x%x, more than %d MiB; scanned to 0x%x", m.describe(), start, end, MAX_STACK_BYTES >> 20,
                    start + MAX_STACK_BYTES)));
            end = start + MAX_STACK_BYTES;
        }
        long at = start;
        byte[] chunk = new byte[CHUNK];
        while (Long.compareUnsigned(at, end) < 0) {
            int length = (int) Math.min(CHUNK, end - at);
            if (!memory.contains(at, length)) {
                problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, at, "stack", String.format(
                        "%s: its stack's memory at 0x%x is not in the dump; scanned from 0x%x to there, not to 0x%x", m.describe(), at, start, end)));
                end = at;
                break;
            }
            memory.read(at, chunk, 0, length);
            for (int i = 0; i + 8 <= length; i += 8) {
                long word = (chunk[i] & 0xffL) | (chunk[i + 1] & 0xffL) << 8 | (chunk[i + 2] & 0xffL) << 16 | (chunk[i + 3] & 0xffL) << 24
                        | (chunk[i + 4] & 0xffL) << 32 | (chunk[i + 5] & 0xffL) << 40 | (chunk[i + 6] & 0xffL) << 48 | (chunk[i + 7] & 0xffL) << 56;
                long object = objectAt(word);
                if (object != 0) {
                    roots.add(Root.onStack(new StackSlot(m.osId(), m.managedId(), at + i, null, rsp, word), object));
                }
            }
            at += length;
        }
        for (Register r : SCANNED_REGISTERS) {
            long value = t.registers().get(r);
            long object = objectAt(value);
            if (object != 0) {
                roots.add(Root.onStack(new StackSlot(m.osId(), m.managedId(), 0, r, rsp, value), object));
            }
        }
        threadStatics(m, rsp, roots, problems);
        return new ThreadScan(m, rsp, end, (end - start) / 8, roots.size() - before, null);
    }

    /** The thread's thread-static array, a root of its own (not on the stack: in the thread's native TLS block). */
    private void threadStatics(ManagedThread m, long rsp, List<Root> roots, List<Problem> problems) {
        if (m.threadStatics() == 0) {
            return;
        }
        long array;
        try {
            array = memory.readPointer(m.threadStatics());
        } catch (MissingMemoryException e) {
            problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, m.threadStatics(), "thread statics", String.format(
                    "%s: its ThreadLocalData cannot be read: %s", m.describe(), e.getMessage())));
            return;
        }
        if (array == 0) {
            return;
        }
        int o = graph.indexOf(array);
        if (o < 0) {
            problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, m.threadStatics(), "thread statics", String.format(
                    "%s: its ThreadLocalData's thread-static array pointer 0x%x is no object of the heap", m.describe(), array)));
            return;
        }
        roots.add(Root.threadStatics(new StackSlot(m.osId(), m.managedId(), m.threadStatics(), null, rsp, array), array));
    }

    /** The object {@code word} points at or into, or 0. */
    private long objectAt(long word) {
        if (Long.compareUnsigned(word, lowest) < 0 || Long.compareUnsigned(word, highest) >= 0) {
            return 0;
        }
        int o = graph.objectHolding(word);
        return o < 0 ? 0 : graph.address(o);
    }

    /** The stack's end: the dump's, else the end of the memory range holding {@code start}; 0 when no range holds it. */
    private long stackEnd(OsThread t, long start) {
        if (t.stackBase() != 0 && Long.compareUnsigned(t.stackBase(), start) > 0) {
            return t.stackBase();
        }
        List<MemoryRange> ranges = memory.ranges();
        int lo = 0;
        int hi = ranges.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            MemoryRange r = ranges.get(mid);
            if (Long.compareUnsigned(start, r.start()) < 0) {
                hi = mid - 1;
            } else if (Long.compareUnsigned(start, r.end()) >= 0) {
                lo = mid + 1;
            } else {
                return r.end();
            }
        }
        return 0;
    }
}
