package io.clrheap.cli;

import io.clrheap.walker.DumpSession;
import io.clrheap.walker.graph.HeapGraph;
import io.clrheap.walker.graph.ObjectGraph;
import io.clrheap.walker.graph.RootPath;
import io.clrheap.walker.report.TypeNames;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Option;

/** {@code clrheap gcroot}: what keeps an object alive, as SOS's gcroot prints it. */
@Command(
        name = "gcroot",
        mixinStandardHelpOptions = true,
        description = {"Show what keeps an object alive: every root that reaches it, shortest path first.",
            "Each path is the chain of references from the root (object, type, and the field offset",
            "each step is read from). Roots are the dump's GC handles (by kind) and its finalization queues; stack and",
            "register roots need the threads' stacks unwound and are not searched."},
        footer = {
            "",
            "Examples:",
            "  ./clrheap gcroot golden/real/net8-svr/core.xz 0x7f929d409790",
            "  ./clrheap gcroot --emulate object-graph 0x7e2000000028",
            "",
            "Exit codes: 0 success (also when no root reaches the object: it says so); 1 ADDR is no",
            "object start (the object holding it is named); 2 bad usage; 3 the dump cannot be opened."
        })
final class GcRootCommand implements Callable<Integer> {

    @Mixin
    HeapSource source = new HeapSource();

    @Parameters(index = "1", arity = "0..1", paramLabel = "ADDR", description = "The object's address (hex).")
    String addressText;

    @Mixin
    GraphCommandSupport.ObjectOptions object = new GraphCommandSupport.ObjectOptions();

    @Option(names = "--max", paramLabel = "N", description = "At most N paths (default: 20).")
    int max = 20;

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
        if (graph.indexOf(object) < 0) {
            int holder = graph.objectHolding(object);
            err.printf(Locale.ROOT, "clrheap gcroot: 0x%x is no object start%s%n", object, holder < 0 ? " (no object holds it)"
                    : String.format(Locale.ROOT, "; it lies in the object at 0x%x (%s)", graph.address(holder), names.display(graph.methodTable(holder), free)));
            return 1;
        }
        List<RootPath> paths = g.pathsTo(object, max);
        for (RootPath p : paths) {
            out.printf(Locale.ROOT, "%s 0x%x (heap %d)%n", label(p), p.root().address(), p.root().heap());
            for (int i = 0; i < p.objects().size(); i++) {
                long o = p.objects().get(i);
                int index = graph.indexOf(o);
                out.printf(Locale.ROOT, "    -> 0x%x %s%s%n", o, names.display(graph.methodTable(index), free),
                        i + 1 < p.objects().size() ? String.format(Locale.ROOT, "  (field +0x%x)", p.offsets().get(i)) : "");
            }
            out.println();
        }
        out.printf(Locale.ROOT, "Found %d root%s%s.%n", paths.size(), paths.size() == 1 ? "" : "s", paths.size() == max ? " (--max reached)" : "");
        out.println(GraphCommandSupport.ROOTS_SEARCHED);
        if (!g.problems().isEmpty()) {
            err.printf(Locale.ROOT, "clrheap: %d problem%s found building the graph; run walk --verify to list them%n", g.problems().size(),
                    g.problems().size() == 1 ? "" : "s");
        }
        return 0;
    }

    private static String label(RootPath p) {
        return switch (p.root().kind()) {
            case FINALIZER -> "finalization queue (ready for finalization) slot";
            case FINALIZABLE -> "finalization queue (registered) slot";
            default -> p.root().kind().id() + " handle";
        };
    }
}
