package io.clrheap.emulator.truth;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/** A set of 8-aligned addresses: a bitmap per touched MiB of address space (16 KiB each), never a Java object per address. */
public final class AddressSet {

    private final Map<Long, long[]> chunks = new HashMap<>();
    private long count;

    public boolean add(long address) {
        long[] bits = chunks.computeIfAbsent(address >>> 20, k -> new long[(1 << 17) / 64]);
        int bit = (int) ((address & 0xfffff) >>> 3);
        long mask = 1L << (bit & 63);
        if ((bits[bit >>> 6] & mask) != 0) {
            return false;
        }
        bits[bit >>> 6] |= mask;
        count++;
        return true;
    }

    public boolean contains(long address) {
        long[] bits = chunks.get(address >>> 20);
        int bit = (int) ((address & 0xfffff) >>> 3);
        return bits != null && (bits[bit >>> 6] & (1L << (bit & 63))) != 0;
    }

    public long[] sorted() {
        long[] out = new long[(int) count];
        int n = 0;
        Long[] keys = chunks.keySet().toArray(Long[]::new);
        Arrays.sort(keys, Long::compareUnsigned);
        for (long key : keys) {
            long[] bits = chunks.get(key);
            for (int w = 0; w < bits.length; w++) {
                for (long word = bits[w]; word != 0; word &= word - 1) {
                    out[n++] = (key << 20) | ((long) (w * 64 + Long.numberOfTrailingZeros(word)) << 3);
                }
            }
        }
        return out;
    }
}
