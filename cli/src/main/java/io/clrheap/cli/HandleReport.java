package io.clrheap.cli;

import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.report.TypeNames;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.clrheap.walker.report.HandleInfo;
import io.clrheap.walker.report.HandleTableWalker;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code walk --handles}: the handles that hold an object (as SOS's gchandles counts them: a slot holding none is an
 * unused handle), counted by type, then each with its target and the target's type, and the problems met; a last line
 * says how many slots hold no object.
 */
final class HandleReport {

    private HandleReport() {
    }

    /** The type of the object a handle holds, or what keeps it from being read. */
    private static String targetType(DumpSession session, TypeNames names, long target, long unmask, long free) {
        try {
            return names.display(session.memory().readPointer(target) & ~unmask, free);
        } catch (MissingMemoryException e) {
            return "(not in the dump)";
        }
    }

    static int print(PrintWriter out, boolean json, HandleTableWalker walker, DumpSession session, TypeNames names) {
        List<HandleInfo> slots = walker.handles();
        List<HandleInfo> handles = slots.stream().filter(h -> h.target() != 0).toList();
        long unused = slots.size() - handles.size();
        long unmask = session.target().layout().constant("object.mt_unmask");
        long free = session.heap().freeMethodTable();
        Map<String, Integer> counts = new TreeMap<>();
        handles.forEach(h -> counts.merge(h.typeName(), 1, Integer::sum));
        if (json) {
            ObjectNode root = JsonNodeFactory.instance.objectNode();
            ObjectNode byType = root.putObject("counts");
            counts.forEach(byType::put);
            ArrayNode list = root.putArray("handles");
            for (HandleInfo h : handles) {
                ObjectNode hj = list.addObject();
                hj.put("handle", "0x" + Long.toHexString(h.handle()));
                hj.put("type", h.typeName());
                hj.put("target", "0x" + Long.toHexString(h.target()));
                hj.put("targetType", targetType(session, names, h.target(), unmask, free));
                if (h.secondary() != 0) {
                    hj.put("secondary", "0x" + Long.toHexString(h.secondary()));
                }
                hj.put("table", h.table());
            }
            root.put("unusedSlots", unused);
            ArrayNode problems = root.putArray("problems");
            walker.problems().forEach(p -> problems.add(p.describe()));
            WalkCommand.printJson(out, root);
            return 0;
        }
        out.println("Handles by type:");
        counts.forEach((type, n) -> out.printf("  %-24s %,8d%n", type, n));
        out.printf("  %-24s %,8d%n", "total", handles.size());
        out.println();
        out.printf("%-18s %-22s %-18s %-18s %-5s %s%n", "handle", "type", "target", "secondary", "table", "target type");
        for (HandleInfo h : handles) {
            out.printf("0x%-16x %-22s 0x%-16x %-18s %-5d %s%n", h.handle(), h.typeName(), h.target(),
                    h.secondary() == 0 ? "" : "0x" + Long.toHexString(h.secondary()), h.table(), targetType(session, names, h.target(), unmask, free));
        }
        out.printf("%,d handle slot%s of the allocated blocks hold%s no object: not listed (SOS's gchandles counts only handles that hold one)%n",
                unused, unused == 1 ? "" : "s", unused == 1 ? "s" : "");
        walker.problems().forEach(p -> out.println("problem: " + p.describe()));
        return 0;
    }

}
