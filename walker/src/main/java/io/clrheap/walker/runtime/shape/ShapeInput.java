package io.clrheap.walker.runtime.shape;

import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MemoryRange;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the shape checks read: the process memory, the runtime module (its base and the ranges of its mappings),
 * {@code g_dacTable} (address, number of entries), a profile for the structure offsets (MethodTable, Thread,
 * ThreadStore, GcDacVars, heap_segment, gc_heap ...) and, where the runtime ships one and it is in the dump, the cDAC
 * contract descriptor's pointer globals (name → the address of the variable).
 */
public record ShapeInput(Memory memory, String moduleName, long moduleBase, List<MemoryRange> moduleRanges, long dacTable,
                         int dacTableLength, RuntimeLayout layout, Map<String, Long> descriptorGlobals) {

    /** g_dacTable has 128-158 entries in 8-10; more than this is not a DAC table. */
    public static final int MAX_TABLE_LENGTH = 4096;

    public ShapeInput {
        moduleRanges = List.copyOf(moduleRanges);
        descriptorGlobals = java.util.Collections.unmodifiableMap(new TreeMap<>(descriptorGlobals));
        if (dacTableLength < 1 || dacTableLength > MAX_TABLE_LENGTH) {
            throw new IllegalArgumentException("g_dacTable length " + dacTableLength + " is not 1-" + MAX_TABLE_LENGTH);
        }
    }

    /** True when {@code address} lies in one of the runtime module's mappings. */
    public boolean inModule(long address) {
        for (MemoryRange r : moduleRanges) {
            if (r.contains(address)) {
                return true;
            }
        }
        return false;
    }
}
