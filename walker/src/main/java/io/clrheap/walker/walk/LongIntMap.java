package io.clrheap.walker.walk;

/**
 * An open-addressing map from non-zero {@code long} keys to {@code int} values, for per-object lookups without
 * boxing. Grows by doubling up to a cap; key 0 is reserved as "empty".
 */
public final class LongIntMap {

    private long[] keys;
    private int[] values;
    private int size;
    private final int maxSize;

    public LongIntMap(int initialCapacity, int maxSize) {
        int capacity = Integer.highestOneBit(Math.max(16, initialCapacity) - 1) << 1;
        this.keys = new long[capacity];
        this.values = new int[capacity];
        this.maxSize = maxSize;
    }

    private static int hash(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    /** The value of {@code key}, or {@code missing}. */
    public int get(long key, int missing) {
        int mask = keys.length - 1;
        for (int i = hash(key) & mask; ; i = (i + 1) & mask) {
            long k = keys[i];
            if (k == key) {
                return values[i];
            }
            if (k == 0) {
                return missing;
            }
        }
    }

    /**
     * Sets {@code key} to {@code value}.
     *
     * @return false when the map is full (at its cap) and the key is new: nothing was stored
     */
    public boolean put(long key, int value) {
        if (key == 0) {
            throw new IllegalArgumentException("key 0 is reserved");
        }
        int mask = keys.length - 1;
        for (int i = hash(key) & mask; ; i = (i + 1) & mask) {
            if (keys[i] == key) {
                values[i] = value;
                return true;
            }
            if (keys[i] == 0) {
                if (size >= maxSize) {
                    return false;
                }
                keys[i] = key;
                values[i] = value;
                if (++size * 2 > keys.length) {
                    grow();
                }
                return true;
            }
        }
    }

    public int size() {
        return size;
    }

    /** Every key, in no particular order. */
    public void forEachKey(java.util.function.LongConsumer action) {
        for (long k : keys) {
            if (k != 0) {
                action.accept(k);
            }
        }
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new int[oldKeys.length * 2];
        int mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldKeys[j] != 0) {
                int i = hash(oldKeys[j]) & mask;
                while (keys[i] != 0) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[j];
                values[i] = oldValues[j];
            }
        }
    }
}
