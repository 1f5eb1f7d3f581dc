package io.clrheap.cli;

import io.clrheap.walker.report.TypeNames;
import java.util.stream.LongStream;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.ProblemKind;
import io.clrheap.walker.report.HandleTableWalker;
import io.clrheap.walker.report.ProblemCollector;
import io.clrheap.walker.walk.HeapWalker;
import java.io.PrintWriter;

/** {@code walk --verify}: every problem discovery, the handle tables and the walk met; exit code 1 when there is any. */
final class VerifyReport {

    private VerifyReport() {
    }

    static int run(PrintWriter out, boolean json, HandleTableWalker handles, HeapWalker walker, DiscoveredHeap heap, TypeNames names,
                   int parallel, io.clrheap.walker.runtime.Target target) throws InterruptedException {
        ProblemCollector all = new ProblemCollector();
        heap.problems().forEach(all::problem);
        // the handle tables too: a handle is a root, and a chain of their segments can loop like a region list
        try {
            handles.handles();
        } catch (MissingMemoryException e) {
            all.problem(new Problem(ProblemKind.UNREADABLE_STRUCTURE, e.address(), "handle tables",
                    "the handle table map cannot be read: " + e.getMessage()));
        }
        handles.problems().forEach(all::problem);
        walker.walkRegions(ProblemCollector::new, all::merge, parallel);
        // the types too: a module whose metadata is corrupt cannot name them (a trimmed dump's missing image is no problem)
        LongStream.Builder methodTables = LongStream.builder();
        all.forEachMethodTable(mt -> {
            if (mt != heap.freeMethodTable()) {
                methodTables.add(mt);
            }
        });
        names.metadataProblems(methodTables.build().sorted()).forEach(all::problem);
        if (json) {
            ObjectNode root = JsonNodeFactory.instance.objectNode();
            root.set("runtime", RuntimeJson.of(target));
            root.put("objects", all.objects());
            root.put("problems", all.total());
            ArrayNode list = root.putArray("list");
            for (Problem p : all.problems()) {
                ObjectNode pj = list.addObject();
                pj.put("kind", p.kind().name());
                pj.put("address", "0x" + Long.toHexString(p.address()));
                pj.put("region", p.region());
                pj.put("detail", p.detail());
                if (p.cause() != null) {
                    pj.put("read", p.cause().describe());
                }
            }
            // what the layout got wrong and the walk read right from what the runtime publishes: not a problem of the heap
            ArrayNode notes = root.putArray("profileNotes");
            heap.profileNotes().forEach(p -> notes.add(p.describe()));
            WalkCommand.printJson(out, root);
        } else {
            all.problems().forEach(p -> out.println(p.describe()));
            heap.profileNotes().forEach(p -> out.println("note (the layout is to fix, not the heap): " + p.describe()));
            out.printf("%,d objects walked, %,d problem%s%n", all.objects(), all.total(), all.total() == 1 ? "" : "s");
        }
        return all.total() == 0 ? 0 : 1;
    }

}
