package io.clrheap.cli;

import io.clrheap.walker.graph.HeapGraph;
import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.report.TypeNames;
import io.clrheap.walker.walk.ObjectVisitor;
import java.util.BitSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code walk}'s dumpheap-style filters: {@code --type} (a substring of the type name, as SOS's {@code -type}),
 * {@code --mt}, {@code --min}/{@code --max} (size in bytes, unaligned), {@code --gen} (0, 1, 2, 3 = LOH, 4 = POH; frozen
 * segments count as 2), {@code --live} (reachable from the dump's roots: handles, finalization queues, frozen
 * segments) and {@code --strings} (strings only). Free objects pass only when no filter is set.
 */
final class ObjectFilter {

    private final String type;
    private final Long mt;
    private final Long min;
    private final Long max;
    private final Integer generation;
    private final BitSet live;          // null: --live not given
    private final HeapGraph graph;      // with live
    private final long stringMethodTable; // 0: --strings not given
    private final TypeNames names;
    private final long free;
    private final ConcurrentHashMap<Long, Boolean> typeMatches = new ConcurrentHashMap<>();

    ObjectFilter(String type, Long mt, Long min, Long max, Integer generation, BitSet live, HeapGraph graph, long stringMethodTable,
                 TypeNames names, long free) {
        this.type = type;
        this.mt = mt;
        this.min = min;
        this.max = max;
        this.generation = generation;
        this.live = live;
        this.graph = graph;
        this.stringMethodTable = stringMethodTable;
        this.names = names;
        this.free = free;
    }

    boolean isEmpty() {
        return type == null && mt == null && min == null && max == null && generation == null && live == null && stringMethodTable == 0;
    }

    boolean accepts(long address, long methodTable, long size, Region region) {
        if (isEmpty()) {
            return true;
        }
        if (methodTable == free && (type == null || !"Free".contains(type)) && mt == null) {
            return false;
        }
        if (mt != null && methodTable != mt) {
            return false;
        }
        if (stringMethodTable != 0 && methodTable != stringMethodTable) {
            return false;
        }
        if (min != null && size < min || max != null && size > max) {
            return false;
        }
        if (generation != null && (region == null || region.kind().generationTableIndex() != generation)) {
            return false;
        }
        if (type != null && !typeMatches.computeIfAbsent(methodTable, m -> names.display(m, free).contains(type))) {
            return false;
        }
        if (live != null) {
            int i = graph.indexOf(address);
            return i >= 0 && live.get(i);
        }
        return true;
    }

    /** {@code visitor}, seeing only the objects this filter accepts (and every problem). */
    ObjectVisitor filtering(ObjectVisitor visitor) {
        if (isEmpty()) {
            return visitor;
        }
        return new ObjectVisitor() {
            @Override
            public void object(long address, long methodTable, long size, Region region) {
                if (accepts(address, methodTable, size, region)) {
                    visitor.object(address, methodTable, size, region);
                }
            }

            @Override
            public void problem(Problem problem) {
                visitor.problem(problem);
            }
        };
    }
}
