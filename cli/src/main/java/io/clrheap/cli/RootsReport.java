package io.clrheap.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.graph.HeapGraph;
import io.clrheap.walker.graph.ObjectGraph;
import io.clrheap.walker.graph.Root;
import io.clrheap.walker.graph.RootKind;
import io.clrheap.walker.graph.ThreadScan;
import io.clrheap.walker.report.TypeNames;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * {@code walk --roots}: every root, one line each, in the answer key's {@code roots.tsv} format (docs/answer-key.md):
 * {@code kind root object flags thread}. Handle and finalization queue rows by root address, then the stack rows thread
 * by thread (slots ascending, registers, the thread-static array). With {@code --json}: the rows with the object's type,
 * and what the stack scan did per thread (docs/schemas/roots.schema.json).
 */
final class RootsReport {

    static final String HEADER = "kind\troot\tobject\tflags\tthread";

    private RootsReport() {
    }

    /** Prints the roots; the summary and the threads not scanned go to {@code err} unless quiet. */
    static int print(PrintWriter out, PrintWriter err, boolean json, boolean quiet, DumpSession session, TypeNames names) {
        ObjectGraph g = session.graph();
        List<Root> rows = ordered(g.roots());
        if (json) {
            printJson(out, session, g, rows, names);
        } else {
            out.println(HEADER);
            for (Root r : rows) {
                out.printf(Locale.ROOT, "%s\t%s\t0x%x\t%s\t%s%n", r.kind().id(), root(r), r.target(), flags(r),
                        r.stack() == null ? "-" : Long.toString(r.stack().osThreadId()));
            }
            out.flush();
        }
        if (!quiet) {
            long stack = rows.stream().filter(r -> r.stack() != null).count();
            long scanned = g.threads().stream().filter(ThreadScan::scanned).count();
            err.printf(Locale.ROOT, "clrheap: %,d roots: %,d handles and finalization queue entries, %,d from the stacks, registers and "
                    + "thread statics of %d of %d managed threads (stacks scanned conservatively)%n", rows.size(), rows.size() - stack, stack,
                    scanned, g.threads().size());
            for (ThreadScan t : g.threads()) {
                if (!t.scanned()) {
                    err.printf(Locale.ROOT, "clrheap: %s not scanned: %s%n", t.thread().describe(), t.skipped());
                }
            }
            g.problems().stream().filter(p -> p.region().equals("stack") || p.region().equals("thread statics"))
                    .forEach(p -> err.println("clrheap: problem: " + p.describe()));
        }
        return 0;
    }

    /** Handle and queue rows by root address (unsigned), then the thread rows in the scan's order. */
    static List<Root> ordered(List<Root> roots) {
        List<Root> rows = new ArrayList<>(roots.stream().filter(r -> r.stack() == null)
                .sorted(Comparator.comparing(Root::address, Long::compareUnsigned)).toList());
        roots.stream().filter(r -> r.stack() != null).forEach(rows::add);
        return rows;
    }

    /** The root's location: its address, or a register's name. */
    static String root(Root r) {
        return r.stack() != null && r.stack().register() != null ? r.stack().register().id() : String.format(Locale.ROOT, "0x%x", r.address());
    }

    /** {@code pinned}, {@code weak}, {@code interior}, {@code conservative}, comma-separated in that order; {@code -} for none. */
    static String flags(Root r) {
        StringJoiner f = new StringJoiner(",");
        if (r.pinned()) {
            f.add("pinned");
        }
        if (r.weak()) {
            f.add("weak");
        }
        if (r.interior()) {
            f.add("interior");
        }
        if (r.kind() == RootKind.STACK) {
            f.add("conservative");
        }
        return f.length() == 0 ? "-" : f.toString();
    }

    private static void printJson(PrintWriter out, DumpSession session, ObjectGraph g, List<Root> rows, TypeNames names) {
        HeapGraph graph = g.graph();
        long free = session.heap().freeMethodTable();
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.set("runtime", RuntimeJson.of(session.target()));
        ArrayNode list = root.putArray("roots");
        for (Root r : rows) {
            ObjectNode row = list.addObject();
            row.put("kind", r.kind().id());
            row.put("root", root(r));
            row.put("object", String.format(Locale.ROOT, "0x%x", r.target()));
            ArrayNode flags = row.putArray("flags");
            String f = flags(r);
            if (!f.equals("-")) {
                for (String one : f.split(",")) {
                    flags.add(one);
                }
            }
            row.put("keepsAlive", r.kind().keepsAlive());
            int index = graph.indexOf(r.target());
            row.put("type", index < 0 ? "(not an object of the heap)" : names.display(graph.methodTable(index), free));
            if (r.stack() != null) {
                row.put("thread", r.stack().osThreadId());
                row.put("managedThread", r.stack().managedThreadId());
                if (r.kind() == RootKind.STACK) {
                    row.put("location", r.stack().location());
                    row.put("value", String.format(Locale.ROOT, "0x%x", r.stack().value()));
                }
            }
            if (r.secondary() != 0) {
                row.put("secondary", String.format(Locale.ROOT, "0x%x", r.secondary()));
            }
        }
        ArrayNode threads = root.putArray("threads");
        for (ThreadScan t : g.threads()) {
            ObjectNode row = threads.addObject();
            row.put("managedThread", t.thread().managedId());
            row.put("thread", t.thread().osId());
            row.put("scanned", t.scanned());
            if (t.scanned()) {
                row.put("rsp", String.format(Locale.ROOT, "0x%x", t.rsp()));
                row.put("stackEnd", String.format(Locale.ROOT, "0x%x", t.stackEnd()));
                row.put("words", t.words());
                row.put("roots", t.roots());
            } else {
                row.put("skipped", t.skipped());
            }
        }
        ArrayNode problems = root.putArray("problems");
        g.problems().forEach(p -> problems.add(p.describe()));
        WalkCommand.printJson(out, root);
    }
}
