package io.clrheap.cli;

import io.clrheap.walker.DumpSession;
import io.clrheap.walker.graph.HeapGraph;
import io.clrheap.walker.graph.ObjectGraph;
import io.clrheap.walker.graph.ObjectSize;
import io.clrheap.walker.report.TypeNames;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code clrheap objsize}: the bytes an object keeps reachable, as SOS's objsize prints them. */
@Command(
        name = "objsize",
        mixinStandardHelpOptions = true,
        description = {"Print the bytes an object keeps reachable: itself and everything it references.",
            "Each object is counted once, directly referenced or not: sizeof(ADDR) = BYTES (0xHEX) bytes (TYPE), as "
                    + "SOS prints it, and how many objects that is."},
        footer = {
            "",
            "Examples:",
            "  ./clrheap objsize golden/real/net8-svr/core.xz 0x7f929d409790",
            "  ./clrheap objsize --emulate object-graph 0x7e2000000028",
            "",
            "Exit codes: 0 success; 1 ADDR is no object start; 2 bad usage; 3 the dump cannot be opened."
        })
final class ObjSizeCommand implements Callable<Integer> {

    @Mixin
    HeapSource source = new HeapSource();

    @Parameters(index = "1", arity = "0..1", paramLabel = "ADDR", description = "The object's address (hex).")
    String addressText;

    @Mixin
    GraphCommandSupport.ObjectOptions object = new GraphCommandSupport.ObjectOptions();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        CommandLine cli = spec.commandLine();
        long address = GraphCommandSupport.parseAddress(cli, GraphCommandSupport.address(cli, source, addressText));
        PrintWriter out = cli.getOut();
        PrintWriter err = cli.getErr();
        return GraphCommandSupport.open("objsize", cli, source, object.module, object.names, err, (session, typeNames) -> print(out, err, session, typeNames, address));
    }

    private static int print(PrintWriter out, PrintWriter err, DumpSession session, TypeNames names, long object) {
        ObjectGraph g = session.graph();
        HeapGraph graph = g.graph();
        ObjectSize size = g.sizeOf(object);
        if (size == null) {
            err.printf(Locale.ROOT, "clrheap objsize: 0x%x is no object start%n", object);
            return 1;
        }
        String type = names.display(graph.methodTable(graph.indexOf(object)), session.heap().freeMethodTable());
        out.printf(Locale.ROOT, "sizeof(%x) = %d (0x%x) bytes (%s)%n", object, size.bytes(), size.bytes(), type);
        out.printf(Locale.ROOT, "%,d object%s%n", size.objects(), size.objects() == 1 ? "" : "s");
        return 0;
    }
}
