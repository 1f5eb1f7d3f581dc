package io.clrheap.walker.graph;

import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.walk.ObjectVisitor;
import io.clrheap.walker.heap.SegmentKind;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The heap's object graph, built from one walk: every object (free objects excluded) in address order with its
 * MethodTable and size, and its references as edges to other objects (compressed rows: one {@code int[]} of first
 * edges, one {@code int[]} of target objects). A reference to an address that is no object start of the walk is a
 * {@link io.clrheap.walker.heap.ProblemKind#DANGLING_REFERENCE} problem and no edge. Memory: about 20 bytes per
 * object and 4 per reference (12 while building); more than {@link #MAX_ITEMS} objects or references is refused.
 */
public final class HeapGraph {

    /** Objects or references beyond this are refused (Java arrays are int-indexed). */
    public static final int MAX_ITEMS = Integer.MAX_VALUE - 16;

    private final long[] addresses;
    private final long[] methodTables;
    private final long[] sizes;
    private final int[] firstEdge;   // objects + 1 entries
    private final int[] targets;     // object indexes
    private final int[] offsets;     // field offsets, parallel to targets
    private final long dangling;
    private final BitSet frozen;
    private volatile ReverseEdges reverse; // built by the first referrers(...) call

    private HeapGraph(long[] addresses, long[] methodTables, long[] sizes, int[] firstEdge, int[] targets, int[] offsets, long dangling,
                      BitSet frozen) {
        this.addresses = addresses;
        this.methodTables = methodTables;
        this.sizes = sizes;
        this.firstEdge = firstEdge;
        this.targets = targets;
        this.offsets = offsets;
        this.dangling = dangling;
        this.frozen = frozen;
    }

    /** Thrown when the heap has more objects or references than a graph can hold. */
    public static final class TooLarge extends RuntimeException {
        TooLarge(String what) {
            super(what + " beyond " + MAX_ITEMS + ": too large for one graph");
        }
    }

    /**
     * Walks the heap once and builds its graph.
     *
     * @param problems hears every problem: the walk's, the GC descriptors', and references to no object
     */
    public static HeapGraph build(HeapWalker walker, ObjectReferences references, long freeMethodTable, Consumer<Problem> problems) {
        Builder b = new Builder();
        walker.walk(new ObjectVisitor() {
            @Override
            public void object(long address, long mt, long size, Region region) {
                if (mt == freeMethodTable) {
                    return;
                }
                b.object(address, mt, size, region != null && region.kind() == SegmentKind.FROZEN);
                Problem p = references.references(address, mt, size, region, (from, offset, to) -> b.edge(to, offset));
                if (p != null) {
                    problems.accept(p);
                }
            }

            @Override
            public void problem(Problem problem) {
                problems.accept(problem);
            }
        });
        return b.finish(problems);
    }

    /**
     * A graph given by hand: objects at {@code addresses} (ascending), each of 24 bytes with MethodTable 0, and
     * {@code references[i]} the addresses object {@code i} refers to, read from fields +0x8, +0x10, … in that order.
     * For small graphs built in tests and examples; a reference to no object is dropped.
     */
    static HeapGraph of(long[] addresses, long[][] references) {
        Builder b = new Builder();
        for (int i = 0; i < addresses.length; i++) {
            b.object(addresses[i], 0, 24, false);
            for (int j = 0; j < references[i].length; j++) {
                b.edge(references[i][j], 8L + 8L * j);
            }
        }
        return b.finish(problem -> { });
    }

    /** Accumulates objects and raw edges (target addresses), then resolves the targets to object indexes. */
    private static final class Builder {
        long[] addresses = new long[1024];
        long[] mts = new long[1024];
        long[] sizes = new long[1024];
        int[] first = new int[1025];
        long[] rawTargets = new long[4096];
        int[] offsets = new int[4096];
        int objects;
        int edges;
        final BitSet frozen = new BitSet();

        void object(long address, long mt, long size, boolean inFrozenSegment) {
            if (objects == addresses.length) {
                int n = grow(objects, "objects");
                addresses = Arrays.copyOf(addresses, n);
                mts = Arrays.copyOf(mts, n);
                sizes = Arrays.copyOf(sizes, n);
                first = Arrays.copyOf(first, n + 1);
            }
            addresses[objects] = address;
            mts[objects] = mt;
            sizes[objects] = size;
            first[objects] = edges;
            if (inFrozenSegment) {
                frozen.set(objects);
            }
            objects++;
        }

        void edge(long to, long offset) {
            if (edges == rawTargets.length) {
                int n = grow(edges, "references");
                rawTargets = Arrays.copyOf(rawTargets, n);
                offsets = Arrays.copyOf(offsets, n);
            }
            rawTargets[edges] = to;
            offsets[edges] = (int) offset;
            edges++;
        }

        private static int grow(int size, String what) {
            if (size >= MAX_ITEMS) {
                throw new TooLarge(what);
            }
            return (int) Math.min(MAX_ITEMS, size + (size >> 1) + 16);
        }

        HeapGraph finish(Consumer<Problem> problems) {
            first[objects] = edges;
            long[] addr = Arrays.copyOf(addresses, objects);
            boolean sorted = true;
            for (int i = 1; i < objects && sorted; i++) {
                sorted = Long.compareUnsigned(addr[i - 1], addr[i]) < 0;
            }
            if (!sorted) {
                throw new IllegalStateException("the walk did not visit objects in ascending address order");
            }
            int[] targets = new int[edges];
            long dangling = 0;
            int kept = 0;
            int[] keptFirst = new int[objects + 1];
            int[] keptOffsets = new int[edges];
            for (int o = 0; o < objects; o++) {
                keptFirst[o] = kept;
                for (int e = first[o]; e < first[o + 1]; e++) {
                    int t = indexOf(addr, rawTargets[e]);
                    if (t < 0) {
                        dangling++;
                        problems.accept(new Problem(io.clrheap.walker.heap.ProblemKind.DANGLING_REFERENCE, addr[o] + offsets[e], "",
                                String.format("object 0x%x, field +0x%x: 0x%x is no object of the heap", addr[o], offsets[e], rawTargets[e])));
                        continue;
                    }
                    targets[kept] = t;
                    keptOffsets[kept] = offsets[e];
                    kept++;
                }
            }
            keptFirst[objects] = kept;
            rawTargets = null;
            return new HeapGraph(addr, Arrays.copyOf(mts, objects), Arrays.copyOf(sizes, objects), keptFirst,
                    Arrays.copyOf(targets, kept), Arrays.copyOf(keptOffsets, kept), dangling, frozen);
        }
    }

    private static int indexOf(long[] sorted, long address) {
        int lo = 0;
        int hi = sorted.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = Long.compareUnsigned(sorted[mid], address);
            if (c == 0) {
                return mid;
            } else if (c < 0) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return -1;
    }

    /** The index of the object starting at {@code address}, or -1. */
    public int indexOf(long address) {
        return indexOf(addresses, address);
    }

    /** The index of the object holding {@code address} (its start or inside it), or -1. */
    public int objectHolding(long address) {
        int lo = 0;
        int hi = addresses.length - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(addresses[mid], address) <= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found >= 0 && Long.compareUnsigned(address - addresses[found], Math.max(sizes[found], 8)) < 0 ? found : -1;
    }

    /** Whether the object lies in a frozen segment (never collected: alive whatever refers to it). */
    public boolean frozen(int object) {
        return frozen.get(object);
    }

    /** The objects in frozen segments. */
    public BitSet frozenObjects() {
        return (BitSet) frozen.clone();
    }

    public int objects() {
        return addresses.length;
    }

    public long references() {
        return targets.length;
    }

    /** References to addresses that are no object of the heap (each also reported as a problem). */
    public long danglingReferences() {
        return dangling;
    }

    public long address(int object) {
        return addresses[object];
    }

    public long methodTable(int object) {
        return methodTables[object];
    }

    public long size(int object) {
        return sizes[object];
    }

    /**
     * The object's references, in field order ({@code walk --refs}'s order): a view over the graph's rows, not a copy.
     * For the address of each target, {@link #address(int) address}{@code (edge.target())}.
     */
    public List<Edge> references(int object) {
        int from = firstEdge[object];
        int to = firstEdge[object + 1];
        return new AbstractList<>() {
            @Override
            public Edge get(int i) {
                Objects.checkIndex(i, to - from);
                return new Edge(object, targets[from + i], offsets[from + i]);
            }

            @Override
            public int size() {
                return to - from;
            }
        };
    }

    /**
     * The references to the object, by referring object in address order (and field order within one): each edge's
     * {@link Edge#source() source} is a referrer. The first call builds the reverse index of the whole graph (4 bytes
     * per object and per reference, kept for later calls).
     */
    public List<Edge> referrers(int object) {
        ReverseEdges reverse = reverseEdges();
        int from = reverse.first()[object];
        int to = reverse.first()[object + 1];
        return new AbstractList<>() {
            @Override
            public Edge get(int i) {
                Objects.checkIndex(i, to - from);
                int e = reverse.edges()[from + i];
                return new Edge(reverse.sources()[from + i], targets[e], offsets[e]);
            }

            @Override
            public int size() {
                return to - from;
            }
        };
    }

    /** The incoming edges, compressed like the outgoing ones: for target {@code t}, {@code edges[first[t] .. first[t + 1])}. */
    private record ReverseEdges(int[] first, int[] edges, int[] sources) {
    }


    private ReverseEdges reverseEdges() {
        ReverseEdges r = reverse;
        if (r == null) {
            synchronized (this) {
                r = reverse;
                if (r == null) {
                    r = buildReverse();
                    reverse = r;
                }
            }
        }
        return r;
    }

    private ReverseEdges buildReverse() {
        int n = objects();
        int[] first = new int[n + 1];
        for (int t : targets) {
            first[t + 1]++;
        }
        for (int i = 0; i < n; i++) {
            first[i + 1] += first[i];
        }
        int[] edges = new int[targets.length];
        int[] sources = new int[targets.length];
        int[] fill = Arrays.copyOf(first, n);
        for (int o = 0; o < n; o++) { // sources ascending: each target's referrers come out in address order
            for (int e = firstEdge[o]; e < firstEdge[o + 1]; e++) {
                int at = fill[targets[e]]++;
                edges[at] = e;
                sources[at] = o;
            }
        }
        return new ReverseEdges(first, edges, sources);
    }

    /**
     * The index of the object's first edge; its edges are {@code [firstEdge(object), edgeEnd(object))}, empty when
     * equal. Valid for {@code object} in {@code [0, objects()]}: {@code firstEdge(objects())} is {@link #references()},
     * so {@code firstEdge(object + 1)} is {@code edgeEnd(object)}. {@link #references(int)} reads them without indexes.
     */
    public int firstEdge(int object) {
        return firstEdge[object];
    }

    /** One past the index of the object's last edge ({@code firstEdge(object + 1)}); {@code object} in {@code [0, objects())}. */
    public int edgeEnd(int object) {
        Objects.checkIndex(object, objects());
        return firstEdge[object + 1];
    }

    /** The object edge {@code edge} points to; {@code edge} in {@code [0, references())}. */
    public int target(int edge) {
        return targets[edge];
    }

    /** The field offset edge {@code edge} is read from. */
    public int offset(int edge) {
        return offsets[edge];
    }
}
