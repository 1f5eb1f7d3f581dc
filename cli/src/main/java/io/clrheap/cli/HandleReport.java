package io.clrheap.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.report.HandleTableWalker;
import io.clrheap.walker.sos.SosGcHandles;
import io.clrheap.walker.report.TypeNames;
import java.io.PrintWriter;

/**
 * {@code walk --handles}: SOS's {@code gchandles} (docs/reports.md), the same text as the answer key's
 * {@code gchandles.txt}; then a line per problem met reading the handle tables.
 */
final class HandleReport {

    private HandleReport() {
    }

    static int print(PrintWriter out, boolean json, HandleTableWalker tables, DumpSession session, TypeNames names) {
        SosGcHandles report = session.gcHandles(tables, names);
        if (json) {
            ObjectNode root = report.json();
            // slots of the allocated blocks that hold no object: SOS's gchandles does not count them
            root.put("unusedSlots", tables.handles().stream().filter(h -> h.target() == 0).count());
            ArrayNode problems = root.putArray("problems");
            tables.problems().forEach(p -> problems.add(p.describe()));
            WalkCommand.printJson(out, root);
            return 0;
        }
        out.print(report.text());
        tables.problems().forEach(p -> out.println("problem: " + p.describe()));
        out.flush();
        return 0;
    }
}
