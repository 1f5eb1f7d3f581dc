package io.clrheap.cli;

import io.clrheap.walker.heap.Region;
import io.clrheap.walker.report.DumpHeapStat;
import io.clrheap.walker.walk.ObjectVisitor;
import io.clrheap.walker.heap.Problem;

/** One region's part of a statistics walk: the statistics and a count of the problems met. */
final class StatWithProblems implements ObjectVisitor {

    final DumpHeapStat stat = new DumpHeapStat();
    long problems;

    @Override
    public void object(long address, long methodTable, long size, Region region) {
        stat.object(address, methodTable, size, region);
    }

    @Override
    public void problem(Problem problem) {
        problems++;
    }
}
