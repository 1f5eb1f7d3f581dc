package io.clrheap.walker.graph;

import java.util.BitSet;
import java.util.List;

/**
 * The objects the next full GC would keep, in the order the GC marks (gc.cpp {@code mark_phase}): everything reachable
 * from the roots that keep objects alive ({@link RootKind#keepsAlive()}) and from the objects of frozen segments (never
 * collected), a dependent handle's secondary whenever its primary is reachable (promoted to a fixed point); then the
 * objects registered for finalization that are still unreached, with everything they reach: the GC moves them to the
 * f-reachable queue and keeps them until their finalizer has run ({@code CFinalize::ScanForFinalization}), and the
 * runtime's own heap snapshot lists them as live. Breadth-first over a {@link HeapGraph}; an {@code int[]} queue and a
 * {@link BitSet}, nothing per object beyond that.
 */
public final class Reachability {

    private Reachability() {
    }

    /** The live objects of {@code graph} (by index), from {@code roots}; also the extra roots' objects, if any. */
    public static BitSet live(HeapGraph graph, List<Root> roots, long... extraRoots) {
        BitSet live = new BitSet(graph.objects());
        int[] queue = new int[Math.max(16, graph.objects())];
        int tail = 0;
        for (Root r : roots) {
            if (r.kind().keepsAlive()) {
                tail = push(graph, live, queue, tail, graph.indexOf(r.target()));
            }
        }
        BitSet frozen = graph.frozenObjects();
        for (int o = frozen.nextSetBit(0); o >= 0; o = frozen.nextSetBit(o + 1)) {
            tail = push(graph, live, queue, tail, o);
        }
        for (long a : extraRoots) {
            tail = push(graph, live, queue, tail, graph.indexOf(a));
        }
        int head = mark(graph, roots, live, queue, 0, tail);
        tail = head;
        for (Root r : roots) {
            if (r.kind() == RootKind.FINALIZABLE) {
                tail = push(graph, live, queue, tail, graph.indexOf(r.target()));
            }
        }
        mark(graph, roots, live, queue, head, tail);
        return live;
    }

    /** Marks from {@code queue[head, tail)} over references and dependent handles to a fixed point; returns the new tail. */
    private static int mark(HeapGraph graph, List<Root> roots, BitSet live, int[] queue, int head, int tail) {
        while (true) {
            while (head < tail) {
                int o = queue[head++];
                for (int e = graph.firstEdge(o); e < graph.firstEdge(o + 1); e++) {
                    tail = push(graph, live, queue, tail, graph.target(e));
                }
            }
            int before = tail;
            for (Root r : roots) {
                if (r.kind() == RootKind.DEPENDENT && r.secondary() != 0) {
                    int primary = graph.indexOf(r.target());
                    if (primary >= 0 && live.get(primary)) {
                        tail = push(graph, live, queue, tail, graph.indexOf(r.secondary()));
                    }
                }
            }
            if (tail == before) {
                return tail;
            }
        }
    }

    private static int push(HeapGraph graph, BitSet live, int[] queue, int tail, int object) {
        if (object < 0 || live.get(object)) {
            return tail;
        }
        live.set(object);
        queue[tail] = object;
        return tail + 1;
    }
}
