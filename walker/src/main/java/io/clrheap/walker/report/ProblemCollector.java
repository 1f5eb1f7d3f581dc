package io.clrheap.walker.report;

import io.clrheap.walker.walk.LongIntMap;
import java.util.function.LongConsumer;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.walk.ObjectVisitor;
import io.clrheap.walker.heap.Problem;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code verify}: keeps the problems of a walk (the first {@value #MAX_KEPT}; the rest are only counted) and the
 * distinct MethodTables met (up to {@value #MAX_METHOD_TABLES}), whose names verify asks for.
 */
public final class ProblemCollector implements ObjectVisitor {

    static final int MAX_KEPT = 10_000;
    static final int MAX_METHOD_TABLES = 1 << 20;

    private final List<Problem> problems = new ArrayList<>();
    private long total;
    private long objects;
    private final LongIntMap methodTables = new LongIntMap(64, MAX_METHOD_TABLES);

    @Override
    public void object(long address, long methodTable, long size, Region region) {
        objects++;
        if (methodTable != 0) {
            methodTables.put(methodTable, 1);
        }
    }

    /** Every distinct MethodTable of the objects walked (the first {@value #MAX_METHOD_TABLES}). */
    public void forEachMethodTable(LongConsumer action) {
        methodTables.forEachKey(action);
    }

    @Override
    public void problem(Problem problem) {
        total++;
        if (problems.size() < MAX_KEPT) {
            problems.add(problem);
        }
    }

    public ProblemCollector merge(ProblemCollector other) {
        for (Problem p : other.problems) {
            problem(p);
        }
        total += other.total - other.problems.size();
        objects += other.objects;
        other.methodTables.forEachKey(mt -> methodTables.put(mt, 1));
        return this;
    }

    public List<Problem> problems() {
        return problems;
    }

    public long total() {
        return total;
    }

    public long objects() {
        return objects;
    }
}
