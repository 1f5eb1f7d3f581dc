package io.clrheap.walker.query;

import io.clrheap.walker.graph.HeapGraph;
import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.report.TypeNameSpelling;
import io.clrheap.walker.report.TypeNames;
import io.clrheap.walker.walk.ObjectVisitor;
import java.util.BitSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link ObjectCriteria} bound to one dump: the type names, the string MethodTable and, for {@code live}, the object
 * graph's live set. Free objects pass only when no criterion is given. {@code walk}'s {@code --type --mt --min --max
 * --gen --live --strings} and the library's {@link io.clrheap.walker.DumpSession#filter} are this one class.
 */
public final class ObjectFilter {

    private final String type;
    private final String typeKey;
    private final Long mt;
    private final Long min;
    private final Long max;
    private final SegmentKind generation;
    private final BitSet live;          // null: --live not given
    private final HeapGraph graph;      // with live
    private final long stringMethodTable; // 0: --strings not given
    private final TypeNames names;
    private final long free;
    private final ConcurrentHashMap<Long, Boolean> typeMatches = new ConcurrentHashMap<>();

    /**
     * @param live              the live set ({@code criteria.live()}), else null
     * @param graph             the graph {@code live} indexes, else null
     * @param stringMethodTable System.String's MethodTable ({@code criteria.strings()}), else 0
     */
    public ObjectFilter(ObjectCriteria criteria, BitSet live, HeapGraph graph, long stringMethodTable, TypeNames names, long free) {
        this.type = criteria.type();
        this.typeKey = type == null ? null : TypeNameSpelling.matchKey(type);
        this.mt = criteria.methodTable();
        this.min = criteria.minSize();
        this.max = criteria.maxSize();
        this.generation = criteria.generation();
        this.live = live;
        this.graph = graph;
        this.stringMethodTable = stringMethodTable;
        this.names = names;
        this.free = free;
    }

    public boolean isEmpty() {
        return type == null && mt == null && min == null && max == null && generation == null && live == null && stringMethodTable == 0;
    }

    public boolean accepts(long address, long methodTable, long size, Region region) {
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
        if (generation != null && (region == null || region.kind() != generation)) {
            return false;
        }
        if (type != null && !typeMatches.computeIfAbsent(methodTable, m -> typeMatches(names.display(m, free)))) {
            return false;
        }
        if (live != null) {
            int i = graph.indexOf(address);
            return i >= 0 && live.get(i);
        }
        return true;
    }

    /**
     * SOS's {@code -type}: an ordinal substring of the name; or of its {@link TypeNameSpelling#matchKey} (generic
     * arguments without assemblies), so that {@code Dictionary`2[System.String} finds the same objects whether the
     * dump's metadata or a names file spelled the name.
     */
    private boolean typeMatches(String name) {
        return name.contains(type) || TypeNameSpelling.matchKey(name).contains(typeKey);
    }

    /** {@code visitor}, seeing only the objects this filter accepts (and every problem). */
    public ObjectVisitor filtering(ObjectVisitor visitor) {
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
