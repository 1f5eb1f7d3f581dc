package io.clrheap.emulator.truth;

import java.util.Arrays;
import java.util.Random;
import java.util.Set;

/**
 * Objects nothing keeps alive, picked to become the targets of roots a walker must take or must not: a thread's stack
 * roots (which make them live), stale stack slots and weak handles (which must leave them dead). Two passes over the
 * ground truth, nothing kept per object: the candidates are counted, then the ones at evenly spread positions are read.
 */
public final class DeadObjects {

    /** Objects picked: their starts and their sizes (unaligned), in address order. */
    public record Picked(long[] addresses, long[] sizes) {
        public int count() {
            return addresses.length;
        }
    }

    private DeadObjects() {
    }

    /**
     * Up to {@code n} objects of a GC generation (never a frozen one: frozen objects are always live; never a free one)
     * that are not in {@code live} (sorted) and not in {@code excluded}, spread over the heap from a random start.
     */
    public static Picked pick(GroundTruth truth, long[] live, Set<Long> excluded, int n, Random random) {
        long[] count = {0};
        truth.forEachObject((address, mt, size, generation, heap, kind) -> {
            if (candidate(address, generation, kind, live, excluded)) {
                count[0]++;
            }
        });
        int taken = (int) Math.min(n, count[0]);
        if (taken == 0) {
            return new Picked(new long[0], new long[0]);
        }
        long spacing = count[0] / taken;
        long first = random.nextLong(spacing);
        long[] addresses = new long[taken];
        long[] sizes = new long[taken];
        long[] index = {0};
        int[] next = {0};
        truth.forEachObject((address, mt, size, generation, heap, kind) -> {
            if (next[0] < taken && candidate(address, generation, kind, live, excluded)) {
                if (index[0] == first + next[0] * spacing) {
                    addresses[next[0]] = address;
                    sizes[next[0]] = size;
                    next[0]++;
                }
                index[0]++;
            }
        });
        return new Picked(addresses, sizes);
    }

    private static boolean candidate(long address, int generation, GroundTruth.Kind kind, long[] live, Set<Long> excluded) {
        return kind == GroundTruth.Kind.OBJECT && generation >= 0 && Arrays.binarySearch(live, address) < 0 && !excluded.contains(address);
    }
}
