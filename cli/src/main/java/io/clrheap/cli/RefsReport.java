package io.clrheap.cli;

import io.clrheap.walker.graph.ObjectReferences;
import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.walk.ObjectVisitor;
import java.io.PrintWriter;

/**
 * {@code walk --refs}: one line per object that holds references, {@code 0xSRC: 0xTARGET 0xTARGET …}, the targets in
 * field order (duplicates kept), objects in address order: the format of the runtime heap snapshot's {@code refs.txt}
 * in the real golden folders. Free objects hold none.
 */
final class RefsReport {

    private RefsReport() {
    }

    /** @return the number of problems met (the walk's and the descriptors') */
    static long print(PrintWriter out, HeapWalker walker, ObjectReferences references, long freeMethodTable) {
        StringBuilder line = new StringBuilder(256);
        long[] problems = {0};
        walker.walk(new ObjectVisitor() {
            @Override
            public void object(long address, long mt, long size, Region region) {
                if (mt == freeMethodTable) {
                    return;
                }
                line.setLength(0);
                Problem p = references.references(address, mt, size, String.valueOf(region), (from, offset, to) -> {
                    line.append(line.isEmpty() ? "0x" + Long.toHexString(from) + ":" : "").append(" 0x").append(Long.toHexString(to));
                });
                if (!line.isEmpty()) {
                    out.append(line).append('\n');
                }
                if (p != null) {
                    problems[0]++;
                }
            }

            @Override
            public void problem(Problem problem) {
                problems[0]++;
            }
        });
        out.flush();
        return problems[0];
    }
}
