package io.clrheap.walker.graph;

import java.util.BitSet;

/**
 * {@code objsize}: an object and everything it reaches, counted once each (SOS's objsize: the bytes the object keeps
 * reachable, whether or not something else holds them too).
 *
 * @param objects how many objects, the object itself included
 * @param bytes   their sizes' sum (unaligned, as reports print sizes)
 */
public record ObjectSize(long objects, long bytes) {

    /** The size of the object at {@code address}, or null when it is no object of the graph. */
    public static ObjectSize of(HeapGraph graph, long address) {
        int start = graph.indexOf(address);
        if (start < 0) {
            return null;
        }
        BitSet seen = new BitSet(graph.objects());
        int[] stack = new int[Math.max(16, graph.objects())];
        int top = 0;
        stack[top++] = start;
        seen.set(start);
        long objects = 0;
        long bytes = 0;
        while (top > 0) {
            int o = stack[--top];
            objects++;
            bytes += graph.size(o);
            for (int e = graph.firstEdge(o); e < graph.firstEdge(o + 1); e++) {
                int t = graph.target(e);
                if (!seen.get(t)) {
                    seen.set(t);
                    stack[top++] = t;
                }
            }
        }
        return new ObjectSize(objects, bytes);
    }
}
