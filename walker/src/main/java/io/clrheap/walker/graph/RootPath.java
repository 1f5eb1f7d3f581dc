package io.clrheap.walker.graph;

import java.util.List;

/**
 * One way a root keeps an object alive: the root, then the objects from the one it holds to the object asked about,
 * with the field offset each step is read from.
 *
 * @param root    the root
 * @param objects the objects along the path, the root's target first, the object asked about last
 * @param offsets {@code offsets.get(i)} is the field of {@code objects.get(i)} that holds {@code objects.get(i + 1)}
 */
public record RootPath(Root root, List<Long> objects, List<Integer> offsets) {

    public RootPath {
        objects = List.copyOf(objects);
        offsets = List.copyOf(offsets);
    }

    /** How many references the path follows. */
    public int length() {
        return objects.size() - 1;
    }
}
