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

    /** The root, then its chain as gcroot prints it: {@code 0x7f…a0 -> (+0x30) 0x7f…e8}. */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("RootPath[").append(root).append(": ");
        for (int i = 0; i < objects.size(); i++) {
            if (i > 0) {
                int offset = offsets.get(i - 1);
                s.append(offset == GcRoots.DEPENDENT_LINK ? " -> (dependent handle) " : String.format(" -> (+0x%x) ", offset));
            }
            s.append(String.format("0x%x", objects.get(i)));
        }
        return s.append(']').toString();
    }
}
