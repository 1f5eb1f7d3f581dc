package io.clrheap.emulator.gc;

import io.clrheap.emulator.truth.GroundTruth;
import java.util.ArrayList;
import java.util.List;

/**
 * A region being filled; under a segments GC, a segment's part holding one generation (a band of the ephemeral
 * segment, or an older, LOH or POH segment).
 */
final class RegionState {
    final int heap;
    int generation;   // 0..4; frozen segments are listed with gen2
    final boolean frozen;
    final long start;
    final long mem;
    /** The end of its room: a region's or segment's reserved end, or where the next generation's band of its segment starts. */
    long reserved;
    long cursor;
    /** The segment it is part of (segments GC), or null (a region, or a frozen segment). */
    Segment segment;
    /** It begins with its generation's start object (segments GC: the free object at allocation_start), which a sweep keeps. */
    boolean startObject;
    long descriptor;
    /** Its objects, as ground-truth runs (direct placement and allocation contexts). */
    final List<GroundTruth.Run> runs = new ArrayList<>();
    /** The run direct placement appends to while it ends at the cursor. */
    GroundTruth.Run current;
    /** Swept by a collection, with nothing placed since. */
    boolean swept;

    /** Nothing to do for a sweep: swept before, nothing placed since, and nothing in it dies. */
    boolean clean() {
        return swept && runs.stream().allMatch(r -> r.dying == 0);
    }

    RegionState(int heap, int generation, boolean frozen, long start, long mem, long reserved) {
        this.heap = heap;
        this.generation = generation;
        this.frozen = frozen;
        this.start = start;
        this.mem = mem;
        this.reserved = reserved;
        this.cursor = mem;
    }

    long room() {
        return reserved - cursor;
    }
}
