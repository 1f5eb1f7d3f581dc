package io.clrheap.generator.answer;

import io.clrheap.walker.heap.Region;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Objects as the DAC reports them (region by region, each region in address order), replayed in address order, as
 * the walker reports them: runs of ascending addresses are sorted by their start; runs that overlap (not expected)
 * are sorted object by object. Kept in primitive arrays (four longs an object).
 */
public final class AddressOrderedObjects {

    /** An object replayed. */
    @FunctionalInterface
    public interface Visitor {
        void object(long address, long mt, long size, Region region);
    }

    private static final int WORDS = 4;
    private long[] data = new long[WORDS * 1024];
    private int count;
    private final List<int[]> runs = new ArrayList<>(); // {first index, end index}
    private int runStart;
    private final List<Region> regions = new ArrayList<>();
    private final Map<Region, Integer> regionIndex = new IdentityHashMap<>();

    public void add(long address, long mt, long size, Region region) {
        if (count > 0 && Long.compareUnsigned(address, data[WORDS * (count - 1)]) <= 0) {
            runs.add(new int[] {runStart, count});
            runStart = count;
        }
        if (WORDS * (count + 1) > data.length) {
            if (data.length >= Integer.MAX_VALUE / 2) {
                throw new IllegalStateException("more than " + count + " objects: too many to order in memory");
            }
            data = Arrays.copyOf(data, data.length * 2);
        }
        int at = WORDS * count;
        data[at] = address;
        data[at + 1] = mt;
        data[at + 2] = size;
        data[at + 3] = region == null ? -1 : regionIndex.computeIfAbsent(region, r -> {
            regions.add(r);
            return regions.size() - 1;
        });
        count++;
    }

    public int size() {
        return count;
    }

    public void replay(Visitor visitor) {
        List<int[]> all = new ArrayList<>(runs);
        if (count > runStart) {
            all.add(new int[] {runStart, count});
        }
        all.sort(Comparator.comparing((int[] r) -> data[WORDS * r[0]], Long::compareUnsigned));
        boolean disjoint = true;
        for (int i = 1; i < all.size() && disjoint; i++) {
            disjoint = Long.compareUnsigned(data[WORDS * (all.get(i - 1)[1] - 1)], data[WORDS * all.get(i)[0]]) < 0;
        }
        if (disjoint) {
            for (int[] r : all) {
                for (int i = r[0]; i < r[1]; i++) {
                    emit(visitor, i);
                }
            }
            return;
        }
        Integer[] order = new Integer[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compareUnsigned(data[WORDS * a], data[WORDS * b]));
        for (int i : order) {
            emit(visitor, i);
        }
    }

    private void emit(Visitor visitor, int i) {
        int at = WORDS * i;
        long region = data[at + 3];
        visitor.object(data[at], data[at + 1], data[at + 2], region < 0 ? null : regions.get((int) region));
    }
}
