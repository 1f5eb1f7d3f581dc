package io.clrheap.walker.graph;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The links dependent handles add to the object graph: the secondary is alive while the primary is (gcscan.cpp's
 * dependent-handle promotion). Indexes are the graph's; a handle whose primary or secondary is no object of the graph
 * adds nothing.
 */
final class DependentLinks {

    private static final int[] NONE = new int[0];

    private final Map<Integer, int[]> secondaries;
    private final Map<Integer, int[]> primaries;

    private DependentLinks(Map<Integer, int[]> secondaries, Map<Integer, int[]> primaries) {
        this.secondaries = secondaries;
        this.primaries = primaries;
    }

    static DependentLinks of(HeapGraph graph, List<Root> roots) {
        Map<Integer, int[]> secondaries = new HashMap<>();
        Map<Integer, int[]> primaries = new HashMap<>();
        for (Root r : roots) {
            if (r.kind() != RootKind.DEPENDENT || r.secondary() == 0) {
                continue;
            }
            int primary = graph.indexOf(r.target());
            int secondary = graph.indexOf(r.secondary());
            if (primary >= 0 && secondary >= 0) {
                secondaries.merge(primary, new int[] {secondary}, DependentLinks::concat);
                primaries.merge(secondary, new int[] {primary}, DependentLinks::concat);
            }
        }
        return new DependentLinks(secondaries, primaries);
    }

    private static int[] concat(int[] a, int[] b) {
        int[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    /** The secondaries alive while object {@code primary} is. */
    int[] secondariesOf(int primary) {
        return secondaries.getOrDefault(primary, NONE);
    }

    /** The primaries that keep object {@code secondary} alive. */
    int[] primariesOf(int secondary) {
        return primaries.getOrDefault(secondary, NONE);
    }
}
