package io.clrheap.cli;

import io.clrheap.memory.Memory;
import io.clrheap.memory.MemoryRange;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.graph.HeapGraph;
import io.clrheap.walker.graph.ObjectGraph;
import io.clrheap.walker.graph.Reachability;
import io.clrheap.walker.graph.Root;
import io.clrheap.walker.graph.RootKind;
import io.clrheap.walker.source.OsThread;
import io.clrheap.walker.source.Register;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;

/**
 * A walker that finds roots as roots.tsv states them — handles, finalization queue slots, and a conservative scan of
 * every thread's stack from rsp to the stack's end and of its general-purpose registers — or with one of the mistakes
 * the trap fixtures are there to catch: {@code MistakenRootsWalker MISTAKE roots|live DUMP}. It reads the dump as clrheap
 * does (the threads' registers from NT_PRSTATUS, the minidump's CONTEXT and TEB, the bundle's manifest) and prints the
 * roots as roots.tsv's rows, or the live objects one address a line.
 */
public final class MistakenRootsWalker {

    /** The mistakes; {@link #NONE} makes none. */
    enum Mistake {
        NONE,
        /** Scans the stack from 256 bytes below rsp: slots of frames that returned are taken for roots. */
        SCANS_BELOW_RSP,
        /** Counts weak short and weak long handles as roots that keep their objects alive. */
        COUNTS_WEAK_HANDLES
    }

    /** How far below rsp {@link Mistake#SCANS_BELOW_RSP} starts. */
    private static final long BELOW_RSP = 256;

    private MistakenRootsWalker() {
    }

    public static void main(String[] args) throws Exception {
        Mistake mistake = Mistake.valueOf(args[0].toUpperCase(Locale.ROOT).replace('-', '_'));
        boolean live = args[1].equals("live");
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        try (DumpSession session = Dumps.open(Path.of(args[2]))) {
            ObjectGraph graph = session.graph();
            HeapGraph g = graph.graph();
            List<String> rows = new ArrayList<>();
            rows.add("kind\troot\tobject\tflags\tthread");
            List<Root> roots = new ArrayList<>();
            for (Root r : graph.roots()) {
                if (r.stack() != null) {
                    continue; // the walker's own stack scan: this one scans the stacks itself, with its mistake
                }
                rows.add(String.format(Locale.ROOT, "%s\t0x%x\t0x%x\t%s\t-", r.kind().id(), r.address(), r.target(), flags(r.kind(), false)));
                boolean weak = r.kind() == RootKind.WEAK_SHORT || r.kind() == RootKind.WEAK_LONG;
                roots.add(mistake == Mistake.COUNTS_WEAK_HANDLES && weak ? new Root(RootKind.STRONG, r.address(), r.target(), r.secondary(), r.heap()) : r);
            }
            List<Long> stackObjects = new ArrayList<>();
            Memory memory = session.memory();
            for (OsThread t : session.osThreads()) {
                long rsp = t.registers().rsp();
                MemoryRange range = memory.ranges().stream().filter(m -> Long.compareUnsigned(rsp - m.start(), m.length()) < 0).findFirst().orElseThrow();
                long end = t.stackBase() != 0 ? t.stackBase() : range.start() + range.length();
                long from = mistake == Mistake.SCANS_BELOW_RSP ? Math.max(range.start(), rsp - BELOW_RSP) : rsp;
                for (long slot = from; Long.compareUnsigned(slot, end) < 0; slot += 8) {
                    stack(g, memory.readLong(slot), String.format(Locale.ROOT, "0x%x", slot), t.osId(), rows, stackObjects);
                }
                for (Register r : Register.values()) {
                    if (r != Register.RSP && r != Register.RIP) {
                        stack(g, t.registers().get(r), r.id(), t.osId(), rows, stackObjects);
                    }
                }
            }
            if (live) {
                BitSet set = Reachability.live(g, roots, stackObjects.stream().mapToLong(Long::longValue).toArray());
                for (int o = set.nextSetBit(0); o >= 0; o = set.nextSetBit(o + 1)) {
                    out.printf(Locale.ROOT, "0x%x%n", g.address(o));
                }
            } else {
                rows.forEach(out::println);
            }
        }
        out.flush();
    }

    /** A stack word or register: a row when it points at or into an object (a free object is none). */
    private static void stack(HeapGraph g, long value, String root, long thread, List<String> rows, List<Long> objects) {
        int o = g.objectHolding(value);
        if (o < 0) {
            return;
        }
        long object = g.address(o);
        objects.add(object);
        rows.add(String.format(Locale.ROOT, "stack\t%s\t0x%x\t%s\t%d", root, object, flags(null, value != object), thread));
    }

    private static String flags(RootKind kind, boolean interior) {
        List<String> flags = new ArrayList<>();
        if (kind == RootKind.PINNED || kind == RootKind.ASYNC_PINNED) {
            flags.add("pinned");
        }
        if (kind != null && !kind.keepsAlive() && kind != RootKind.FINALIZABLE) {
            flags.add("weak");
        }
        if (interior) {
            flags.add("interior");
        }
        if (kind == null) {
            flags.add("conservative");
        }
        return flags.isEmpty() ? "-" : String.join(",", flags);
    }
}
