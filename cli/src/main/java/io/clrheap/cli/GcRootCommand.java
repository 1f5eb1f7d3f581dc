package io.clrheap.cli;

import io.clrheap.walker.DumpSession;
import io.clrheap.walker.fields.ObjectFields;
import io.clrheap.walker.graph.HeapGraph;
import io.clrheap.walker.graph.ObjectGraph;
import io.clrheap.walker.graph.GcRoots;
import io.clrheap.walker.graph.RootKind;
import io.clrheap.walker.graph.RootPath;
import io.clrheap.walker.report.TypeNames;
import java.io.PrintWriter;
import io.clrheap.walker.graph.StackSlot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Option;

/**
 * {@code clrheap gcroot}: what keeps an object alive, laid out as SOS's gcroot prints it (dotnet/diagnostics
 * GCRootCommand.cs: "Thread OSID:", "HandleTable:" and "Finalizer Queue:" headings, a root line, the chain as {@code -> address type}
 * rows, "Found N unique roots."). Only roots that keep an object alive are counted (GcRoots); weak handles and
 * objects registered for finalization that reach it are said apart, and listed with --all.
 */
@Command(
        name = "gcroot",
        mixinStandardHelpOptions = true,
        description = {"Show what keeps an object alive: every root that reaches it, shortest path first, as SOS's gcroot.",
            "A root is what the GC counts as one: a thread's stack slot or register, a strong, pinned, async-pinned, "
                    + "ref-counted or sized-ref handle, the f-reachable finalization queue, and a dependent handle's secondary "
                    + "through its primary (marked 'dependent handle'). Weak handles and objects registered for finalization "
                    + "keep nothing alive: they are not counted, and --all lists those that reach the object. Each row of a "
                    + "path is an object and its type, with the field of the previous object it was reached through. Each "
                    + "managed thread's stack (from its stack pointer up) and registers are scanned conservatively: a word that "
                    + "points into an object is a root, named by its thread, slot and rsp offset; .NET 9 and 10 threads' "
                    + "thread-static arrays are roots too."},
        footer = {
            "",
            "Examples:",
            "  ./clrheap gcroot golden/real/net8-svr/core.xz 0x7f929d409790",
            "  ./clrheap gcroot --all golden/real/net8-svr/core.xz 0x7f929d40c170",
            "  ./clrheap gcroot --emulate object-graph 0x7e2000000028",
            "",
            "Exit codes: 0 success (also when no root reaches the object: it says so); 1 ADDR is no object start (the "
                    + "object holding it is named); 2 bad usage; 3 the dump cannot be opened."})
final class GcRootCommand implements Callable<Integer> {

    @Mixin
    HeapSource source = new HeapSource();

    @Parameters(index = "1", arity = "0..1", paramLabel = "ADDR", description = "The object's address (hex).")
    String addressText;

    @Mixin
    GraphCommandSupport.ObjectOptions object = new GraphCommandSupport.ObjectOptions();

    @Option(names = "--max", paramLabel = "N", description = "At most N paths (default: 20).")
    int max = 20;

    @Option(names = "--all", description = "Also list the weak handles and finalization registrations that reach the object (never counted as roots).")
    boolean all;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        CommandLine cli = spec.commandLine();
        long address = GraphCommandSupport.parseAddress(cli, GraphCommandSupport.address(cli, source, addressText));
        if (max < 1) {
            throw new CommandLine.ParameterException(cli, "--max must be at least 1");
        }
        PrintWriter out = cli.getOut();
        PrintWriter err = cli.getErr();
        return GraphCommandSupport.open("gcroot", cli, source, object.module, object.names, err, (session, typeNames) -> print(out, err, session, typeNames, address));
    }

    private int print(PrintWriter out, PrintWriter err, DumpSession session, TypeNames names, long object) {
        ObjectGraph g = session.graph();
        HeapGraph graph = g.graph();
        long free = session.heap().freeMethodTable();
        if (GraphCommandSupport.noObjectStart("gcroot", err, graph, names, free, object)) {
            return 1;
        }
        GcRoots.Found found = g.rootsOf(object, max);
        List<RootPath> paths = found.keeping();
        printGrouped(out, paths, graph, names, free, session.fields());
        out.printf(Locale.ROOT, "Found %,d unique roots.%s%n", paths.size(), paths.size() == max ? " (--max reached)" : "");
        List<RootPath> weak = found.notKeeping();
        if (!weak.isEmpty()) {
            out.println();
            if (all) {
                out.printf(Locale.ROOT, "Not roots: %d weak handle%s or finalization registration%s reach%s the object but keep nothing alive:%n",
                        weak.size(), weak.size() == 1 ? "" : "s", weak.size() == 1 ? "" : "s", weak.size() == 1 ? "es" : "");
                printGrouped(out, weak, graph, names, free, session.fields());
            } else {
                out.printf(Locale.ROOT, "Not roots: %d weak handle%s or finalization registration%s reach%s the object but keep nothing alive "
                        + "(--all lists them).%n", weak.size(), weak.size() == 1 ? "" : "s", weak.size() == 1 ? "" : "s", weak.size() == 1 ? "es" : "");
            }
        }
        out.println(GraphCommandSupport.rootsSearched(g));
        if (!g.problems().isEmpty()) {
            err.printf(Locale.ROOT, "clrheap: %d problem%s found building the graph; run walk --verify to list them%n", g.problems().size(),
                    g.problems().size() == 1 ? "" : "s");
        }
        return 0;
    }

    /**
     * As SOS groups them: each thread's roots under "Thread OSID:" (the OS thread id in hex), in the threads' order,
     * then handle roots under "HandleTable:", then the finalization queue's under "Finalizer Queue:"; shortest first
     * within each.
     */
    private static void printGrouped(PrintWriter out, List<RootPath> paths, HeapGraph graph, TypeNames names, long free, ObjectFields fields) {
        Map<Long, List<RootPath>> byThread = new LinkedHashMap<>();
        for (RootPath p : paths) {
            if (p.root().stack() != null) {
                byThread.computeIfAbsent(p.root().stack().osThreadId(), t -> new ArrayList<>()).add(p);
            }
        }
        for (List<RootPath> onThread : byThread.values()) {
            StackSlot first = onThread.getFirst().root().stack();
            out.printf(Locale.ROOT, "Thread %x (tid %d, managed thread %d):%n", first.osThreadId(), first.osThreadId(), first.managedThreadId());
            for (RootPath p : onThread) {
                StackSlot s = p.root().stack();
                if (p.root().kind() == RootKind.THREAD_STATIC) {
                    out.printf(Locale.ROOT, "    %016x (thread-static array)%n", s.address());
                } else if (s.register() != null) {
                    out.printf(Locale.ROOT, "    %s: %016x (register, conservative)%n", s.register().id(), s.value());
                } else {
                    out.printf(Locale.ROOT, "    %s: %016x (stack slot %016x, conservative%s)%n", s.location(), s.value(), s.address(),
                            p.root().interior() ? ", interior pointer" : "");
                }
                printPath(out, p, graph, names, free, fields);
            }
        }
        for (boolean queue : new boolean[] {false, true}) {
            boolean first = true;
            for (RootPath p : paths) {
                if (p.root().stack() != null) {
                    continue;
                }
                boolean inQueue = p.root().kind() == RootKind.FINALIZER || p.root().kind() == RootKind.FINALIZABLE;
                if (inQueue != queue) {
                    continue;
                }
                if (first) {
                    out.println(queue ? "Finalizer Queue:" : "HandleTable:");
                    first = false;
                }
                out.printf(Locale.ROOT, "    %016x (%s)%n", p.root().address(), label(p.root().kind()));
                printPath(out, p, graph, names, free, fields);
            }
        }
    }

    /**
     * The chain from the root's object to the object asked about, one {@code ->} row per object, each with the field
     * or array element of the object before that holds it ({@code (field _entries)}, {@code (element [3].value)}), then a blank line.
     */
    private static void printPath(PrintWriter out, RootPath p, HeapGraph graph, TypeNames names, long free, ObjectFields fields) {
        for (int i = 0; i < p.objects().size(); i++) {
            long o = p.objects().get(i);
            int index = graph.indexOf(o);
            String via = "";
            if (i > 0 && p.offsets().get(i - 1) == GcRoots.DEPENDENT_LINK) {
                via = " (dependent handle)";
            } else if (i > 0) {
                long holder = p.objects().get(i - 1);
                String slot = fields.slotName(holder, graph.methodTable(graph.indexOf(holder)), p.offsets().get(i - 1));
                via = slot.startsWith("[") ? " (element " + slot + ")" : " (field " + slot + ")";
            }
            out.printf(Locale.ROOT, "          -> %016x %s%s%n", o, names.display(graph.methodTable(index), free), via);
        }
        out.println();
    }

    /** SOS's names for handle kinds (GCRootCommand.NameForHandle), and the finalization queue's two kinds of entry. */
    static String label(RootKind kind) {
        return switch (kind) {
            case FINALIZER -> "finalizer root";
            case FINALIZABLE -> "registered for finalization, not ready: not a root";
            case WEAK_SHORT -> "weak short handle";
            case WEAK_LONG -> "weak long handle";
            case STRONG -> "strong handle";
            case PINNED -> "pinned handle";
            case REFCOUNTED -> "ref counted handle";
            case DEPENDENT -> "dependent handle";
            case ASYNC_PINNED -> "async pinned handle";
            case SIZED_REF -> "sized ref handle";
            case VARIABLE -> "variable handle";
            case WEAK_NATIVE_COM -> "weak native COM handle";
            case WEAK_INTERIOR_POINTER -> "weak interior pointer handle";
            case STACK -> "stack";
            case THREAD_STATIC -> "thread static";
        };
    }
}
