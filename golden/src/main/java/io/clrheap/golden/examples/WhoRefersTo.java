package io.clrheap.golden.examples;

import io.clrheap.walker.DumpSession;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.graph.Edge;
import io.clrheap.walker.graph.HeapGraph;
import io.clrheap.walker.graph.ObjectGraph;
import io.clrheap.walker.graph.RootPath;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/** Example: an object's references and referrers, and what keeps it alive. Run: ./clrheap example WhoRefersTo DUMP [ADDRESS] */
public final class WhoRefersTo {

    private static final int SHOWN = 10;

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            System.err.println("usage: ./clrheap example WhoRefersTo DUMP [ADDRESS]");
            System.exit(2);
        }
        run(new PrintWriter(System.out, true), Path.of(args[0]), args.length > 1 ? Long.parseUnsignedLong(args[1].replaceFirst("^0x", ""), 16) : 0);
    }

    /** Without an address ({@code 0}), the object most referred to. */
    public static void run(PrintWriter out, Path file, long address) throws Exception {
        try (DumpSession dump = Dumps.open(file)) {
            ObjectGraph objects = dump.graph(); // one more walk: every object, its references, the roots
            HeapGraph g = objects.graph();
            int object = address != 0 ? g.indexOf(address) : mostReferredTo(g);
            if (object < 0) {
                out.printf("0x%x is no object of the heap%n", address);
                return;
            }
            out.printf("0x%x %s: %d references, %d referrers%n", g.address(object), name(dump, g, object),
                    g.references(object).size(), g.referrers(object).size());
            for (Edge e : g.references(object)) {
                out.printf("  refers to      0x%x %s (field +0x%x)%n", g.address(e.target()), name(dump, g, e.target()), e.offset());
            }
            List<Edge> referrers = g.referrers(object); // by referring object, in address order
            for (Edge e : referrers.subList(0, Math.min(SHOWN, referrers.size()))) {
                out.printf("  referred to by 0x%x %s (field +0x%x)%n", g.address(e.source()), name(dump, g, e.source()), e.offset());
            }
            if (referrers.size() > SHOWN) {
                out.printf("  … and %d more referrers%n", referrers.size() - SHOWN);
            }
            for (RootPath path : objects.pathsTo(g.address(object), 1)) {
                out.println("kept alive by " + path); // the root and the chain, addresses in hex
            }
        }
    }

    private static int mostReferredTo(HeapGraph g) {
        int best = 0;
        for (int o = 1; o < g.objects(); o++) {
            best = g.referrers(o).size() > g.referrers(best).size() ? o : best;
        }
        return best;
    }

    private static String name(DumpSession dump, HeapGraph g, int object) {
        return dump.typeNames().display(g.methodTable(object), dump.heap().freeMethodTable());
    }
}
