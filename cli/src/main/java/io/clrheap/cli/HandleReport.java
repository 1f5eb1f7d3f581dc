package io.clrheap.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.clrheap.walker.report.HandleInfo;
import io.clrheap.walker.report.HandleTableWalker;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** {@code walk --handles}: handle counts by type, then every handle with its target, and the problems met. */
final class HandleReport {

    private HandleReport() {
    }

    static int print(PrintWriter out, boolean json, HandleTableWalker walker) {
        List<HandleInfo> handles = walker.handles();
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
                if (h.secondary() != 0) {
                    hj.put("secondary", "0x" + Long.toHexString(h.secondary()));
                }
                hj.put("table", h.table());
            }
            ArrayNode problems = root.putArray("problems");
            walker.problems().forEach(p -> problems.add(p.describe()));
            WalkCommand.printJson(out, root);
            return 0;
        }
        out.println("Handles by type:");
        counts.forEach((type, n) -> out.printf("  %-24s %,8d%n", type, n));
        out.printf("  %-24s %,8d%n", "total", handles.size());
        out.println();
        out.printf("%-18s %-22s %-18s %-18s %s%n", "handle", "type", "target", "secondary", "table");
        for (HandleInfo h : handles) {
            out.printf("0x%-16x %-22s 0x%-16x %-18s %d%n", h.handle(), h.typeName(), h.target(),
                    h.secondary() == 0 ? "" : "0x" + Long.toHexString(h.secondary()), h.table());
        }
        walker.problems().forEach(p -> out.println("problem: " + p.describe()));
        return 0;
    }

}
