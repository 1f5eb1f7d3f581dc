package io.clrheap.cli;

import io.clrheap.walker.heap.Region;
import io.clrheap.walker.report.DumpHeapStat;
import io.clrheap.walker.walk.ObjectVisitor;
import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.query.ObjectFilter;

/** One region's part of a statistics walk: the statistics and a count of the problems met. */
final class StatWithProblems implements ObjectVisitor {

    final DumpHeapStat stat = new DumpHeapStat();
    long problems;
    private final ObjectFilter filter;

    StatWithProblems() {
        this(null);
    }

    /** @param filter the objects counted ({@code walk}'s dumpheap-style filters), or null for all */
    StatWithProblems(ObjectFilter filter) {
        this.filter = filter;
    }

    @Override
    public void object(long address, long methodTable, long size, Region region) {
        if (filter == null || filter.accepts(address, methodTable, size, region)) {
            stat.object(address, methodTable, size, region);
        }
    }

    @Override
    public void problem(Problem problem) {
        problems++;
    }
}
