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

    /** What {@link #print} did: objects walked, references printed, problems met. */
    record Summary(long objects, long references, long problems) {
    }

    static Summary print(PrintWriter out, HeapWalker walker, ObjectReferences references, long freeMethodTable) {
        StringBuilder line = new StringBuilder(256);
        long[] problems = {0};
        long[] counts = {0, 0};
        walker.walk(new ObjectVisitor() {
            @Override
            public void object(long address, long mt, long size, Region region) {
                if (mt == freeMethodTable) {
                    return;
                }
                counts[0]++;
                line.setLength(0);
                Problem p = references.references(address, mt, size, region, (from, offset, to) -> {
                    if (line.isEmpty()) {
                        line.append("0x").append(Long.toHexString(from)).append(':');
                    }
                    line.append(" 0x").append(Long.toHexString(to));
                    counts[1]++;
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
        return new Summary(counts[0], counts[1], problems[0]);
    }
}
