package io.clrheap.walker.walk;

import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;

/**
 * What a walk needs of each MethodTable — base size, component size, whether it is valid — read once per distinct
 * MethodTable and kept in one open-addressing table of (MethodTable, info) pairs side by side, so that a look-up is
 * one probe of one array: the walk's next address depends on it, object after object. One per walking thread.
 */
final class MethodTableCache {

    /** The info of a MethodTable that could not be read or is not plausible (no valid info is negative). */
    static final long INVALID = -1;

    private final Memory memory;
    private final WalkRules rules;
    private final long freeMethodTable;
    private final int maxEntries;
    /** [mt0, info0, mt1, info1, …]; an mt of 0 is an empty slot. Length a power of two. */
    private long[] table = new long[2 * 256];
    private int size;

    MethodTableCache(Memory memory, WalkRules rules, long freeMethodTable, int maxEntries) {
        this.memory = memory;
        this.rules = rules;
        this.freeMethodTable = freeMethodTable;
        this.maxEntries = maxEntries;
    }

    private static int hash(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    /** The info of {@code mt} (non-zero): {@link #INVALID}, or a value for {@link #baseSize}/{@link #componentSize}. */
    long lookup(long mt) {
        long[] t = table;
        int mask = t.length - 2;
        for (int i = (hash(mt) << 1) & mask; ; i = (i + 2) & mask) {
            long k = t[i];
            if (k == mt) {
                return t[i + 1];
            }
            if (k == 0) {
                return load(mt);
            }
        }
    }

    static int baseSize(long info) {
        return (int) info;
    }

    static int componentSize(long info) {
        return (int) (info >>> 32);
    }

    private long load(long mt) {
        int flags;
        int baseSize;
        try {
            flags = memory.readInt(mt + rules.mtFlagsOffset());
            baseSize = memory.readInt(mt + rules.mtBaseSizeOffset());
        } catch (MissingMemoryException e) {
            put(mt, INVALID);
            return INVALID;
        }
        int componentSize = rules.componentSize(flags);
        if (baseSize < rules.minBaseSize() || baseSize > rules.maxBaseSize() || (mt != freeMethodTable && !rules.hasEeClass(memory, mt))) {
            put(mt, INVALID);
            return INVALID;
        }
        long info = Integer.toUnsignedLong(baseSize) | (long) componentSize << 32;
        put(mt, info); // when the cache is full: answered without remembering
        return info;
    }

    /** Remembers {@code mt}'s info unless the cache holds {@code maxEntries} MethodTables already. */
    private void put(long mt, long info) {
        if (size >= maxEntries) {
            return;
        }
        int mask = table.length - 2;
        int i = (hash(mt) << 1) & mask;
        while (table[i] != 0) {
            i = (i + 2) & mask;
        }
        table[i] = mt;
        table[i + 1] = info;
        if (++size * 4 > table.length) { // more than half the slots used
            long[] old = table;
            table = new long[old.length * 2];
            mask = table.length - 2;
            for (int j = 0; j < old.length; j += 2) {
                if (old[j] != 0) {
                    int k = (hash(old[j]) << 1) & mask;
                    while (table[k] != 0) {
                        k = (k + 2) & mask;
                    }
                    table[k] = old[j];
                    table[k + 1] = old[j + 1];
                }
            }
        }
    }
}
