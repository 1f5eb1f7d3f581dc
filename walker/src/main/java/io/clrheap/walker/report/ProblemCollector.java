package io.clrheap.walker.report;

import io.clrheap.walker.heap.Region;
import io.clrheap.walker.walk.ObjectVisitor;
import io.clrheap.walker.heap.Problem;
import java.util.ArrayList;
import java.util.List;

/** {@code verify}: keeps the problems of a walk (the first {@value #MAX_KEPT}; the rest are only counted). */
public final class ProblemCollector implements ObjectVisitor {

    static final int MAX_KEPT = 10_000;

    private final List<Problem> problems = new ArrayList<>();
    private long total;
    private long objects;

    @Override
    public void object(long address, long methodTable, long size, Region region) {
        objects++;
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
