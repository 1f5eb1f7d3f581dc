package io.clrheap.walker.graph;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * {@code gcroot}: the roots that keep an object alive, each with its shortest path, as the runtime counts roots: the
 * handles that keep their object alive ({@link RootKind#keepsAlive}: strong, pinned, async-pinned, ref-counted,
 * sized-ref), the f-reachable queue, and a dependent handle's secondary through its primary (the GC's dependent-handle
 * promotion, gcscan.cpp; SOS's gcroot follows the same link and marks it "dependent handle"). Weak handles and objects
 * registered for finalization but not ready keep nothing alive; {@link #notKeeping} lists what of them reaches the
 * object, apart. One breadth-first search backwards from the object over the reversed edges (references and dependent
 * links) gives every object's distance to it; each root whose object has a distance then follows a link that brings
 * it one step closer until it arrives. Paths are sorted shortest first.
 */
public final class GcRoots {

    /** In {@link RootPath#offsets()}: the step is a dependent handle's link from its primary to its secondary, no field. */
    public static final int DEPENDENT_LINK = -1;

    private GcRoots() {
    }

    /**
     * The paths to the object at {@code address} from every root in {@code roots} that keeps what it holds alive and
     * reaches it (at most {@code maxPaths}, shortest first); empty when none does or the address is no object.
     */
    public static List<RootPath> paths(HeapGraph graph, List<Root> roots, long address, int maxPaths) {
        return search(graph, roots, address, maxPaths).keeping();
    }

    /**
     * The paths to the object at {@code address} from the roots that reach it but keep nothing alive (weak handles,
     * dependent handles' primaries, objects registered for finalization and not ready): what a user may take for a
     * root and is not.
     */
    public static List<RootPath> notKeeping(HeapGraph graph, List<Root> roots, long address, int maxPaths) {
        return search(graph, roots, address, maxPaths).notKeeping();
    }

    /**
     * Both lists of one search (gcroot prints both): the paths from roots that keep the object alive and from those
     * that do not, each at most {@code maxPaths}, shortest first.
     */
    public record Found(List<RootPath> keeping, List<RootPath> notKeeping) {
    }

    /** {@link #paths} and {@link #notKeeping} from one backward search. */
    public static Found search(HeapGraph graph, List<Root> roots, long address, int maxPaths) {
        int goal = graph.indexOf(address);
        if (goal < 0) {
            return new Found(List.of(), List.of());
        }
        int n = graph.objects();
        // reversed edges, compressed: for each object the objects referring to it
        int[] inCount = new int[n + 1];
        for (int o = 0; o < n; o++) {
            for (int e = graph.firstEdge(o); e < graph.firstEdge(o + 1); e++) {
                inCount[graph.target(e) + 1]++;
            }
        }
        for (int i = 0; i < n; i++) {
            inCount[i + 1] += inCount[i];
        }
        int[] sources = new int[inCount[n]];
        int[] fill = Arrays.copyOf(inCount, n);
        for (int o = 0; o < n; o++) {
            for (int e = graph.firstEdge(o); e < graph.firstEdge(o + 1); e++) {
                sources[fill[graph.target(e)]++] = o;
            }
        }
        DependentLinks links = DependentLinks.of(graph, roots);
        int[] distance = new int[n];
        Arrays.fill(distance, -1);
        int[] queue = new int[n];
        int head = 0;
        int tail = 0;
        distance[goal] = 0;
        queue[tail++] = goal;
        while (head < tail) {
            int o = queue[head++];
            for (int i = inCount[o]; i < inCount[o + 1]; i++) {
                int s = sources[i];
                if (distance[s] < 0) {
                    distance[s] = distance[o] + 1;
                    queue[tail++] = s;
                }
            }
            for (int s : links.primariesOf(o)) {
                if (distance[s] < 0) {
                    distance[s] = distance[o] + 1;
                    queue[tail++] = s;
                }
            }
        }
        List<RootPath> keeping = new ArrayList<>();
        List<RootPath> notKeeping = new ArrayList<>();
        for (Root r : roots) {
            int start = graph.indexOf(r.target());
            if (start >= 0 && distance[start] >= 0) {
                (r.kind().keepsAlive() ? keeping : notKeeping).add(path(graph, r, start, distance, links));
            }
        }
        return new Found(shortestFirst(keeping, maxPaths), shortestFirst(notKeeping, maxPaths));
    }

    private static List<RootPath> shortestFirst(List<RootPath> paths, int maxPaths) {
        paths.sort(Comparator.comparingInt(RootPath::length));
        return paths.size() > maxPaths ? List.copyOf(paths.subList(0, maxPaths)) : paths;
    }

    private static RootPath path(HeapGraph graph, Root root, int start, int[] distance, DependentLinks links) {
        List<Long> objects = new ArrayList<>();
        List<Integer> offsets = new ArrayList<>();
        int o = start;
        objects.add(graph.address(o));
        while (distance[o] > 0) {
            int next = -1;
            for (int e = graph.firstEdge(o); e < graph.firstEdge(o + 1) && next < 0; e++) {
                int t = graph.target(e);
                if (distance[t] == distance[o] - 1) {
                    offsets.add(graph.offset(e));
                    next = t;
                }
            }
            if (next < 0) {
                for (int t : links.secondariesOf(o)) {
                    if (distance[t] == distance[o] - 1) {
                        offsets.add(DEPENDENT_LINK);
                        next = t;
                        break;
                    }
                }
            }
            if (next < 0) {
                break; // no link one step closer: cannot happen with distances from the search above
            }
            o = next;
            objects.add(graph.address(o));
        }
        return new RootPath(root, objects, offsets);
    }
}
