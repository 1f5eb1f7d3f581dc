package io.clrheap.emulator.gc;

import java.util.ArrayList;
import java.util.List;

/**
 * One segment of a segments GC ({@code libclrgc.so}): a reservation whose {@code heap_segment} lies at its base, its
 * objects from base + 0x1000 (docs/reference/discovery.md section 14). A small-object segment holds one band per
 * generation it has objects of, in address order (the ephemeral one: gen2's, gen1's, gen0's).
 */
final class Segment {
    final int heap;
    /** 0 small objects, 3 LOH, 4 POH. */
    final int kind;
    final long base;
    final long end;
    final List<RegionState> bands = new ArrayList<>();

    Segment(int heap, int kind, long base, long end) {
        this.heap = heap;
        this.kind = kind;
        this.base = base;
        this.end = end;
    }

    /** The band new objects of the segment's last generation go to. */
    RegionState tail() {
        return bands.get(bands.size() - 1);
    }

    /** The end of its objects. */
    long allocated() {
        return tail().cursor;
    }
}
