package io.clrheap.walker.walk;

import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;

/**
 * What a walk needs of each MethodTable — base size, component size, whether it is valid — read once per distinct
 * MethodTable and kept in flat arrays. One per walking thread.
 */
final class MethodTableCache {

    /** Entry value for a MethodTable that could not be read or is not plausible. */
    static final int INVALID = -1;
    private static final int MISSING = Integer.MIN_VALUE;

    private final Memory memory;
    private final WalkRules rules;
    private final long freeMethodTable;
    private final LongIntMap index;
    private int[] baseSizes = new int[256];
    private int[] componentSizes = new int[256];
    private int count;

    MethodTableCache(Memory memory, WalkRules rules, long freeMethodTable, int maxEntries) {
        this.memory = memory;
        this.rules = rules;
        this.freeMethodTable = freeMethodTable;
        this.index = new LongIntMap(256, maxEntries);
    }

    /** The entry of {@code mt}: an index for {@link #baseSize}/{@link #componentSize}, or {@link #INVALID}. */
    int lookup(long mt) {
        int e = index.get(mt, MISSING);
        return e != MISSING ? e : load(mt);
    }

    int baseSize(int entry) {
        return baseSizes[entry];
    }

    int componentSize(int entry) {
        return componentSizes[entry];
    }

    /**
     * The EEClass back-pointer test (discovery.md section 10): EEClassOrCanonMT leads (through the canonical
     * MethodTable when its low bit is set) to an EEClass whose MethodTable field points back to the canonical one.
     * The free-object MethodTable has no EEClass and is taken on its address.
     */
    private boolean hasEeClass(long mt) {
        try {
            long e = memory.readPointer(mt + rules.eeClassOrCanonOffset());
            long canonical = mt;
            if ((e & rules.canonBit()) != 0) {
                canonical = e & ~rules.canonBit();
                e = memory.readPointer(canonical + rules.eeClassOrCanonOffset());
            }
            return e != 0 && memory.readPointer(e + rules.eeClassMethodTableOffset()) == canonical;
        } catch (MissingMemoryException e) {
            return false;
        }
    }

    private int load(long mt) {
        int flags;
        int baseSize;
        try {
            flags = memory.readInt(mt + rules.mtFlagsOffset());
            baseSize = memory.readInt(mt + rules.mtBaseSizeOffset());
        } catch (MissingMemoryException e) {
            index.put(mt, INVALID);
            return INVALID;
        }
        int componentSize = rules.componentSize(flags);
        if (baseSize < rules.minBaseSize() || baseSize > rules.maxBaseSize() || (mt != freeMethodTable && !hasEeClass(mt))) {
            index.put(mt, INVALID);
            return INVALID;
        }
        if (count == baseSizes.length) {
            baseSizes = java.util.Arrays.copyOf(baseSizes, count * 2);
            componentSizes = java.util.Arrays.copyOf(componentSizes, count * 2);
        }
        baseSizes[count] = baseSize;
        componentSizes[count] = componentSize;
        if (!index.put(mt, count)) {
            return count; // cache full: answer without remembering
        }
        return count++;
    }
}
