package io.clrheap.walker.graph;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * {@code gcroot}: the roots that keep an object alive, each with its shortest path. One breadth-first search backwards
 * from the object over the graph's reversed edges gives every object's distance to it; each root whose object has a
 * distance then follows a reference that brings it one step closer until it arrives. Paths are sorted shortest first.
 */
public final class GcRoots {

    private GcRoots() {
    }

    /**
     * The paths to the object at {@code address} from every root in {@code roots} that reaches it (at most
     * {@code maxPaths}, shortest first); empty when none does or the address is no object.
     */
    public static List<RootPath> paths(HeapGraph graph, List<Root> roots, long address, int maxPaths) {
        int goal = graph.indexOf(address);
        if (goal < 0) {
            return List.of();
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
        }
        List<RootPath> paths = new ArrayList<>();
        for (Root r : roots) {
            int start = graph.indexOf(r.target());
            if (start >= 0 && distance[start] >= 0) {
                paths.add(path(graph, r, start, distance));
            }
        }
        paths.sort(Comparator.comparingInt(RootPath::length));
        return paths.size() > maxPaths ? List.copyOf(paths.subList(0, maxPaths)) : paths;
    }

    private static RootPath path(HeapGraph graph, Root root, int start, int[] distance) {
        List<Long> objects = new ArrayList<>();
        List<Integer> offsets = new ArrayList<>();
        int o = start;
        objects.add(graph.address(o));
        while (distance[o] > 0) {
            for (int e = graph.firstEdge(o); e < graph.firstEdge(o + 1); e++) {
                int t = graph.target(e);
                if (distance[t] == distance[o] - 1) {
                    offsets.add(graph.offset(e));
                    o = t;
                    break;
                }
            }
            objects.add(graph.address(o));
        }
        return new RootPath(root, objects, offsets);
    }
}
