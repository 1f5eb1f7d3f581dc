package io.clrheap.emulator.gc;

import io.clrheap.emulator.process.ProcessLayout;
import io.clrheap.emulator.truth.GroundTruth;
import io.clrheap.layout.SegmentsGcLayout;
import java.util.List;

/**
 * Where a segments GC ({@code libclrgc.so}) puts what {@link HeapBuilder} places, as the real 9.0.x dumps of it show
 * (docs/reference/discovery.md section 14): per heap a small-object segment (256 MiB under workstation GC, 4 GiB a heap
 * under server GC), then each heap's LOH segment, then each heap's POH segment, every heap_segment at its segment's
 * base and the objects from base + 0x1000. In the ephemeral segment gen2, gen1 and gen0 follow one another, each from
 * its allocation_start, where a free object of the minimum size stands; LOH and POH start likewise.
 *
 * <p>Objects placed directly in gen1 after gen0 has begun go to room left for them before gen0's start (what the
 * program may still place in gen1 on that heap, bounded from its steps, kept again each time gen0 starts anew); objects placed directly in gen2 after gen1 has begun go to an older segment, listed
 * before the ephemeral one. What stays unused between two generations becomes one free object ({@link #seal}).
 */
final class SegmentedHeaps {

    private final HeapBuilder builder;
    private final SegmentsGcLayout gc;
    private final long sohSize;
    private final long uohSize;
    /** At most how many bytes the program places directly in gen1 on one heap (0 when it places none). */
    private final long gen1Bound;
    /** The bytes the program has placed directly in gen1 so far, per heap: the room before gen0 keeps only what is still to come. */
    private final long[] gen1Placed;
    /** Whether the allocation program runs (the populations placed before it take no room kept for it). */
    private boolean inProgram;
    private long next = ProcessLayout.GC_RESERVE;
    private final long reserveEnd = ProcessLayout.GC_RESERVE + ProcessLayout.GC_RESERVE_SIZE;

    /** The MethodTable of the stale objects written past each segment's end (Feature.STALE_SEGMENT_TAIL), or 0 for none. */
    private final long staleObjectMt;
    /** Stale System.Object images per segment tail (24 bytes each). */
    static final int STALE_OBJECTS = 4;

    SegmentedHeaps(HeapBuilder builder, SegmentsGcLayout gc, boolean server, int heaps, long gen1Placements, long staleObjectMt) {
        this.builder = builder;
        this.staleObjectMt = staleObjectMt;
        this.gc = gc;
        this.sohSize = server ? gc.serverSoh(heaps) : gc.workstationSoh();
        this.uohSize = server ? gc.serverUoh() : gc.workstationUoh();
        this.gen1Bound = gen1Placements;
        this.gen1Placed = new long[heaps];
    }

    SegmentsGcLayout layout() {
        return gc;
    }

    /** Each heap's first segments, reserved in the real order: the small-object segments, then the LOH ones, then the POH ones. */
    void create(List<Heap> order) {
        for (Heap heap : order) {
            Segment s = reserve(heap.index, 0, sohSize);
            heap.sohSegments.add(s);
            heap.generations.get(2).add(band(s, 2, true));
        }
        for (int kind : new int[] {HeapBuilder.LOH, HeapBuilder.LOH + 1}) {
            for (Heap heap : order) {
                heap.generations.get(kind).add(band(reserve(heap.index, kind, uohSize), kind, true));
            }
        }
    }

    private Segment reserve(int heap, int kind, long size) {
        long base = next;
        if (Long.compareUnsigned(base + size, reserveEnd) > 0) {
            throw new IllegalStateException(String.format("the GC reserve range [0x%x, 0x%x) is used up: the scenario needs more than %d GiB of segments",
                    ProcessLayout.GC_RESERVE, reserveEnd, ProcessLayout.GC_RESERVE_SIZE >> 30));
        }
        next = base + size;
        return new Segment(heap, kind, base, base + size);
    }

    /** A band of {@code generation} at the segment's first free byte, with its generation's start object if {@code start}. */
    private RegionState band(Segment s, int generation, boolean start) {
        long mem = s.bands.isEmpty() ? s.base + gc.firstObjectOffset() : s.tail().cursor;
        return band(s, generation, mem, start);
    }

    private RegionState band(Segment s, int generation, long mem, boolean start) {
        RegionState r = new RegionState(s.heap, generation, false, s.base, mem, s.end);
        r.segment = s;
        s.bands.add(r);
        if (start) {
            builder.writeFree(builder.runAt(r), gc.startObjectSize(), GroundTruth.Kind.FREE);
            r.cursor = r.current.end;
            r.startObject = true;
        }
        return r;
    }

    /** Whether {@code need} bytes fit in {@code r}, leaving room for nothing or for at least a free object before the next band. */
    private boolean fits(RegionState r, long need) {
        long room = r.reserved - r.cursor;
        return r == r.segment.tail() ? room >= need : room == need || room >= need + gc.startObjectSize();
    }

    /** The band direct placement of {@code need} bytes in {@code generation} fills (a new segment or band where it takes one). */
    RegionState fill(Heap heap, int generation, long need) {
        List<RegionState> list = heap.generations.get(generation);
        if (generation >= HeapBuilder.LOH) {
            RegionState last = list.get(list.size() - 1);
            if (fits(last, need)) {
                return last;
            }
            // a bigger object gets a segment as many segment sizes long as it takes
            long size = Math.max(uohSize, (need + gc.firstObjectOffset() + uohSize - 1) / uohSize * uohSize);
            RegionState r = band(reserve(heap.index, generation, size), generation, false);
            list.add(r);
            return r;
        }
        Segment ephemeral = heap.ephemeral();
        if (generation == 2) {
            if (ephemeral.tail().generation == 2 && ephemeral.bands.size() == 1) {
                if (fits(ephemeral.tail(), need)) {
                    return ephemeral.tail();
                }
                // the ephemeral segment is full of gen2: a new one takes its place (the GC's heap expansion)
                Segment s = reserve(heap.index, 0, sohSize);
                heap.sohSegments.add(s);
                RegionState r = band(s, 2, false);
                list.add(r);
                return r;
            }
            // gen1 has begun in the ephemeral segment: survivors of several GCs go to an older segment before it
            Segment older = heap.sohSegments.size() > 1 ? heap.sohSegments.get(heap.sohSegments.size() - 2) : null;
            if (older != null && fits(older.tail(), need)) {
                return older.tail();
            }
            Segment s = reserve(heap.index, 0, Math.max(sohSize, need + gc.firstObjectOffset()));
            heap.sohSegments.add(heap.sohSegments.size() - 1, s);
            RegionState r = band(s, 2, false);
            list.add(list.indexOf(ephemeral.bands.get(0)), r);
            return r;
        }
        if (list.isEmpty()) {
            open(heap, generation);
        }
        RegionState r = list.get(list.size() - 1);
        if (generation == 1 && inProgram) {
            gen1Placed[heap.index] += need;
        }
        if (!fits(r, need)) {
            throw new IllegalStateException(String.format("heap %d's ephemeral segment has no room for %,d bytes more of gen%d (%,d bytes left%s)",
                    heap.index, need, generation, r.reserved - r.cursor,
                    generation == 1 && r != r.segment.tail() ? " before gen0's start" : ": a segments GC holds gen0 and gen1 in one segment"));
        }
        return r;
    }

    /** The ephemeral segment's gen0 band, opened (gen1's before it) when gen0 has none. */
    RegionState gen0(Heap heap) {
        return fill(heap, 0, 0);
    }

    /** Opens a band of gen1 or gen0 at the end of the ephemeral segment, its start object first; gen0 after room for the program's gen1 placements. */
    private RegionState open(Heap heap, int generation) {
        if (generation == 0 && heap.generations.get(1).isEmpty()) {
            open(heap, 1);
        }
        Segment ephemeral = heap.ephemeral();
        RegionState previous = ephemeral.tail();
        long mem = previous.cursor + (generation == 0 ? gen1Headroom(heap) : 0);
        if (Long.compareUnsigned(mem + gc.startObjectSize(), ephemeral.end) > 0) {
            throw new IllegalStateException(String.format("heap %d's ephemeral segment [0x%x, 0x%x) is full: no room for gen%d's start",
                    heap.index, ephemeral.base, ephemeral.end, generation));
        }
        previous.reserved = mem;
        RegionState r = band(ephemeral, generation, mem, true);
        heap.generations.get(generation).add(r);
        return r;
    }

    /** The room kept before gen0's start: what the program may still place directly in gen1 on this heap, and a free object's worth. */
    private long gen1Headroom(Heap heap) {
        long left = gen1Bound - gen1Placed[heap.index];
        return left <= 0 ? 0 : left + gc.startObjectSize();
    }

    void startProgram() {
        inProgram = true;
    }

    /** After a collection has promoted the survivors: gen0 starts anew at the end of the ephemeral segment (gen1 too when it is empty). */
    void afterCollection(Heap heap) {
        if (heap.generations.get(1).isEmpty()) {
            open(heap, 1);
        }
        open(heap, 0);
    }

    /**
     * The heap laid out: every generation has its start (gen1 and gen0 opened where nothing was placed in them), and
     * the room each band of the ephemeral segment left unused before the next generation's start is one free object.
     */
    void seal(Heap heap) {
        gen0(heap);
        for (Segment s : heap.sohSegments) {
            for (RegionState band : s.bands) {
                if (band != s.tail() && band.cursor != band.reserved) {
                    builder.writeFree(builder.runAt(band), band.reserved - band.cursor, GroundTruth.Kind.FREE);
                    band.cursor = band.current.end;
                }
            }
        }
    }

    /**
     * Whether gen0 holds nothing but its start object yet (a collection has just opened it): a context taken now starts
     * right after gen0's allocation_start object.
     */
    boolean gen0Empty(Heap heap) {
        RegionState gen0 = gen0(heap);
        return gen0.startObject && gen0.cursor == gen0.mem + gc.startObjectSize();
    }

    /**
     * Stale objects past each segment's end of objects (Feature.STALE_SEGMENT_TAIL): System.Object images, as a
     * compaction leaves them; no object of the heap. Returns where they end, or the end of objects when there are none.
     */
    long writeStaleTail(Segment s, long end) {
        if (staleObjectMt == 0 || s.end - end < STALE_OBJECTS * 24L + gc.startObjectSize()) {
            return end;
        }
        var memory = builder.memory();
        for (int i = 0; i < STALE_OBJECTS; i++) {
            memory.writePointer(end + 24L * i, staleObjectMt);
        }
        return end + 24L * STALE_OBJECTS;
    }

    /** Each generation's allocation_start: its start object (the first band of its list that begins with one). */
    static long[] allocationStarts(Heap heap) {
        long[] starts = new long[5];
        for (int g = 0; g < 5; g++) {
            starts[g] = heap.generations.get(g).stream().filter(r -> r.startObject).mapToLong(r -> r.mem).findFirst()
                    .orElseThrow(() -> new IllegalStateException("a generation without its start object"));
        }
        return starts;
    }
}
