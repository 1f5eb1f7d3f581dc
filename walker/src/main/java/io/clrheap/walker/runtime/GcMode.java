package io.clrheap.walker.runtime;

import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;

/**
 * How the GC a dump's process ran lays out its heap, read from the dump, not assumed from the runtime's build: the GC
 * may be a standalone one ({@code DOTNET_GCName=libclrgc.so}, the segments GC every classic 9.0.x package ships beside
 * libcoreclr.so) whatever the runtime's own GC is. The GC publishes it in {@code GcDacVars.generation_field_offsets}
 * (dac_generation_fields.h: allocation_context, start_segment, allocation_start): {@code allocation_start}, which only
 * a segments GC has, is −1 under regions (docs/reference/discovery.md section 5; 9.0.7's libclrgc.so publishes it, a
 * real dump of it read in docs/reference/discovery.md section 14).
 */
public enum GcMode {
    /** Regions (USE_REGIONS): every generation is a list of regions. */
    REGIONS,
    /** Segments: gen0 and gen1 at the tail of the ephemeral segment, told apart by each generation's allocation_start. */
    SEGMENTS;

    /**
     * The mode the GcDacVars at {@code gcDacVars} publishes; when it publishes no offsets or they cannot be read, the
     * profile's (regions where it knows a region size).
     */
    public static GcMode of(Memory memory, RuntimeLayout layout, long gcDacVars) {
        GcMode profile = layout.constants().containsKey("region.basic_size") ? REGIONS : SEGMENTS;
        try {
            long array = memory.readPointer(gcDacVars + layout.offset("GcDacVars", "generation_field_offsets"));
            if (array == 0) {
                return profile;
            }
            return memory.readInt(array + 8) == -1 ? REGIONS : SEGMENTS;
        } catch (MissingMemoryException e) {
            return profile;
        }
    }
}
