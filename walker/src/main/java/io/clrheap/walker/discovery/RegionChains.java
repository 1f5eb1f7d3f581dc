package io.clrheap.walker.discovery;

import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.heap.FieldRead;
import io.clrheap.walker.heap.ProblemKind;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.heap.SubHeap;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A heap's generation table and its region lists (docs/reference/discovery.md section 6): each generation's
 * {@code start_segment} (at the offset the GC publishes), then every {@code heap_segment} of its list through
 * {@code next}; the ephemeral region ends at {@code alloc_allocated}. One instance per discovery: a region listed by
 * two heaps' lists is walked once, and the region budget spans every heap.
 */
final class RegionChains {

    /** The order SOS's eeheap lists them: gen2 (frozen segments first), gen1, gen0, LOH, POH (GCMD EnumerateHeapSegments). */
    private static final int[] LIST_ORDER = {2, 1, 0, 3, 4};

    private final Chase chase;
    private final long stride;
    private final FieldSpec startSegment;
    private final long gen0ContextOffset;
    private final FieldSpec allocated;
    private final FieldSpec committed;
    private final FieldSpec reserved;
    private final FieldSpec mem;
    private final FieldSpec flags;
    private final FieldSpec next;
    private final long readonly;
    /** heap_segment.heap: the owning gc_heap (server GC builds only), null elsewhere. */
    private final FieldSpec owner;
    /** Regions mode: every generation starts with a region, every region is in exactly one list. */
    private final boolean regionsMode;
    /** generation.allocation_start, a segments GC's (null under regions): where gen1 and gen0 start in the ephemeral segment. */
    private final FieldSpec allocationStart;
    private final Set<Long> seen = new HashSet<>();
    private int budget;

    /**
     * @param stride            GcDacVars.generation_size
     * @param startSegment      generation.start_segment, at the published offset when there is one
     * @param gen0ContextOffset generation.allocation_context, likewise
     * @param allocationStart   generation.allocation_start of a segments GC ({@link io.clrheap.walker.runtime.GcMode}), null under regions
     */
    RegionChains(Chase chase, long stride, FieldSpec startSegment, long gen0ContextOffset, FieldSpec allocationStart) {
        this.chase = chase;
        this.stride = stride;
        this.startSegment = startSegment;
        this.gen0ContextOffset = gen0ContextOffset;
        this.allocated = chase.field("heap_segment", "allocated");
        this.committed = chase.field("heap_segment", "committed");
        this.reserved = chase.field("heap_segment", "reserved");
        this.mem = chase.field("heap_segment", "mem");
        this.flags = chase.field("heap_segment", "flags");
        this.next = chase.field("heap_segment", "next");
        this.readonly = chase.layout.constant("heap_segment.flags.readonly");
        this.owner = chase.regionOwner();
        this.allocationStart = allocationStart;
        this.regionsMode = allocationStart == null && chase.layout.constants().containsKey("region.basic_size");
        this.budget = chase.limits.maxRegions();
    }

    /** The heap's regions; its gen0 allocation context (generation_table[0].allocation_context) goes to {@code contexts}. */
    SubHeap heap(HeapRoots heap, AllocContextReader contexts, List<AllocContextInfo> found) {
        if (chase.listening()) {
            chase.emit(new GenerationTableEntered(heap.index(), heap.generationTable(), stride));
        }
        long[] starts = new long[5];
        boolean[] readable = new boolean[5];
        for (int gen = 0; gen < 5; gen++) {
            long generation = heap.generationTable() + gen * stride;
            try {
                starts[gen] = chase.read(startSegment, generation);
                readable[gen] = true;
            } catch (MissingMemoryException e) {
                chase.problem(ProblemKind.UNREADABLE_STRUCTURE, generation, "heap " + heap.index(), "generation " + gen + " cannot be read: "
                        + e.getMessage(), chase.failedRead());
            }
        }
        long[] generationStarts = allocationStarts(heap);
        String owner = "heap " + heap.index() + " gen0";
        if (chase.listening()) {
            chase.emit(new ContextEntered(owner));
        }
        found.add(contexts.read(owner, heap.generationTable() + gen0ContextOffset));
        List<Region> regions = new ArrayList<>();
        for (int gen : LIST_ORDER) {
            if (readable[gen] && starts[gen] == 0 && regionsMode) {
                long generation = heap.generationTable() + gen * stride;
                chase.problem(ProblemKind.MISSING_GENERATION_START, startSegment.at(generation).address(), "heap " + heap.index() + " gen" + gen + " list", String.format(
                        "generation_table[%d].start_segment is 0: with regions every generation starts with a region; its regions are looked for in the region map",
                        gen), startSegment.at(generation));
            }
            if (readable[gen]) {
                list(heap, gen, starts[gen], regions, generationStarts);
            }
        }
        if (regionsMode) {
            ephemeral(heap, regions);
        }
        if (regions.isEmpty() && regionsMode) {
            chase.problem(ProblemKind.HEAP_WITHOUT_REGIONS, heap.gcHeap() != 0 ? heap.gcHeap() : heap.generationTable(), "heap " + heap.index(),
                    "no list of this heap names a region; its regions are looked for in the region map", startSegment.at(heap.generationTable()));
        }
        return new SubHeap(heap.index(), heap.gcHeap(), heap.generationTable(), heap.allocAllocated(), heap.ephemeralSegment(),
                heap.finalizeQueue(), regions);
    }

    /**
     * The heap's ephemeral region must be one of its listed regions (gen0 allocates in it). When ephemeral_heap_segment
     * names none, the listed gen0 region holding alloc_allocated is the one (its objects end there); reported either way.
     */
    private void ephemeral(HeapRoots heap, List<Region> regions) {
        if (regions.isEmpty() || regions.stream().anyMatch(Region::ephemeral)) {
            return;
        }
        long end = heap.allocAllocated();
        Region holder = null;
        for (Region r : regions) {
            if (r.kind() == SegmentKind.GEN0 && Long.compareUnsigned(end, r.mem()) >= 0 && Long.compareUnsigned(end, r.committed()) <= 0) {
                holder = r;
            }
        }
        String where = "heap " + heap.index();
        if (holder == null) {
            chase.problem(ProblemKind.EPHEMERAL_NOT_LISTED, heap.ephemeralRead().address(), where, String.format(
                    "ephemeral_heap_segment 0x%x is in none of the heap's lists, and no listed gen0 region holds alloc_allocated 0x%x; "
                            + "gen0 regions end at their heap_segment.allocated", heap.ephemeralSegment(), end), heap.ephemeralRead());
            return;
        }
        Region fixed = new Region(holder.heap(), holder.kind(), holder.descriptor(), holder.mem(), end, holder.allocated(), holder.committed(),
                holder.reserved(), holder.flags(), true);
        regions.set(regions.indexOf(holder), fixed);
        chase.problem(ProblemKind.EPHEMERAL_NOT_LISTED, heap.ephemeralRead().address(), where, String.format(
                "ephemeral_heap_segment 0x%x is in none of the heap's lists; the listed gen0 region holding alloc_allocated 0x%x, %s, is taken as "
                        + "the ephemeral one", heap.ephemeralSegment(), end, fixed), heap.ephemeralRead());
    }

    /**
     * A segments GC's gen1 and gen0 allocation_start ({@code [1]}, {@code [0]}); null under regions, or when they cannot
     * be read (reported: the ephemeral segment is then walked as one range).
     */
    private long[] allocationStarts(HeapRoots heap) {
        if (allocationStart == null) {
            return null;
        }
        long[] starts = new long[2];
        for (int gen = 0; gen < 2; gen++) {
            long generation = heap.generationTable() + gen * stride;
            try {
                starts[gen] = chase.read(allocationStart, generation);
            } catch (MissingMemoryException e) {
                chase.problem(ProblemKind.UNREADABLE_STRUCTURE, generation, "heap " + heap.index(), "generation " + gen
                        + "'s allocation_start cannot be read (" + e.getMessage() + "); the ephemeral segment is walked as one range", chase.failedRead());
                return null;
            }
        }
        return starts;
    }

    /**
     * The ephemeral segment of a segments GC as its generations lie in it (docs/reference/walker-semantics.md, segments mode): gen2
     * from mem to gen1's allocation_start, gen1 to gen0's, gen0 to alloc_allocated — each start a generation's first
     * object (the gap object the GC puts there). Starts out of that order are reported, and the segment is walked as one
     * range of the list it hangs from.
     */
    private List<Region> ephemeralSegment(HeapRoots heap, Region segment, long[] starts) {
        return segment.splitAtGenerations(starts[1], starts[0]).orElseGet(() -> {
            chase.problem(ProblemKind.BAD_REGION_BOUNDS, segment.descriptor(), segment.toString(), String.format(
                    "gen1 starts at 0x%x and gen0 at 0x%x, not in order inside [0x%x, 0x%x): the ephemeral segment is walked as one range",
                    starts[1], starts[0], segment.mem(), segment.end()), allocationStart.at(heap.generationTable()));
            return List.of(segment);
        });
    }

    /** The descriptors of every region listed so far (by every heap). */
    Set<Long> listed() {
        return seen;
    }

    private void list(HeapRoots heap, int gen, long first, List<Region> regions, long[] generationStarts) {
        if (chase.listening()) {
            chase.emit(new GenerationListEntered(heap.index(), gen, first));
        }
        String where = "heap " + heap.index() + " gen" + gen + " list";
        Set<Long> chain = new HashSet<>();
        // the read that gave the segment now followed: what a cycle or the budget names as the cause
        FieldSpec from = startSegment;
        long fromBase = heap.generationTable() + gen * stride;
        long segment = first;
        while (segment != 0) {
            if (!chain.add(segment)) {
                rejected(heap, gen, segment, Rejection.REPEATED);
                chase.problem(ProblemKind.SEGMENT_CYCLE, segment, where, "this heap_segment comes again in the same list; the chain is cut here",
                        from.at(fromBase));
                break;
            }
            if (!seen.add(segment)) {
                rejected(heap, gen, segment, Rejection.ALREADY_LISTED);
                if (regionsMode) {
                    chase.problem(ProblemKind.REGION_LISTED_TWICE, segment, where, "this heap_segment is already in another list; it is walked once "
                            + "and this list is cut here (with regions every region is in exactly one list)", from.at(fromBase));
                }
                break; // already listed from another generation's list (segments mode: gen0/gen1 start in gen2's); so is the rest
            }
            if (budget-- <= 0) {
                rejected(heap, gen, segment, Rejection.OVER_BUDGET);
                chase.problem(ProblemKind.TOO_MANY_REGIONS, segment, where, "more than " + chase.limits.maxRegions()
                        + " regions; the rest are not followed", from.at(fromBase));
                break;
            }
            if (chase.listening()) {
                chase.emit(new SegmentEntered(heap.index(), gen, segment));
            }
            long following;
            try {
                long end = chase.read(allocated, segment);
                long commit = chase.read(committed, segment);
                long reserve = chase.read(reserved, segment);
                long start = chase.read(mem, segment);
                long bits = chase.read(flags, segment);
                following = chase.read(next, segment);
                if (owner != null && (bits & readonly) == 0) {
                    long owning = chase.read(owner, segment);
                    if (owning != heap.gcHeap()) {
                        chase.problem(ProblemKind.FOREIGN_REGION, segment, where, String.format(
                                "heap_segment.heap is 0x%x, not this heap's gc_heap 0x%x", owning, heap.gcHeap()), owner.at(segment));
                    }
                }
                Region region = region(heap, gen, segment, start, end, commit, reserve, bits);
                if (region != null) {
                    regions.addAll(generationStarts == null || !region.ephemeral() ? List.of(region) : ephemeralSegment(heap, region, generationStarts));
                }
            } catch (MissingMemoryException e) {
                rejected(heap, gen, segment, Rejection.UNREADABLE);
                chase.problem(ProblemKind.UNREADABLE_STRUCTURE, segment, where, "heap_segment cannot be read (" + e.getMessage()
                        + "); the chain is cut here", chase.failedRead());
                break;
            }
            from = next;
            fromBase = segment;
            segment = following;
        }
    }

    /** The region a heap_segment describes, or null when it is freed or its bounds are out of order (reported). */
    private Region region(HeapRoots heap, int gen, long segment, long start, long allocatedEnd, long commit, long reserve, long bits) {
        SegmentKind kind = (bits & readonly) != 0 ? SegmentKind.FROZEN : SegmentKind.ofGeneration(gen);
        boolean ephemeral = segment == heap.ephemeralSegment();
        long end = ephemeral ? heap.allocAllocated() : allocatedEnd;
        Region region = new Region(heap.index(), kind, segment, start, end, allocatedEnd, commit, reserve, bits, ephemeral);
        if (allocatedEnd == 0 && !ephemeral) {
            rejected(heap.index(), kind, segment, Rejection.FREED); // allocated 0 marks a freed region (gcpriv.h heap_segment.allocated)
            return null;
        }
        // mem <= end <= committed <= reserved: a region's objects lie in memory the GC committed
        boolean endOutside = Long.compareUnsigned(end, start) < 0 || Long.compareUnsigned(end, commit) > 0;
        if (endOutside || Long.compareUnsigned(commit, reserve) > 0) {
            rejected(heap.index(), kind, segment, Rejection.BAD_BOUNDS);
            FieldRead cause = !endOutside ? committed.at(segment) : ephemeral ? heap.allocAllocatedRead() : allocated.at(segment);
            chase.problem(ProblemKind.BAD_REGION_BOUNDS, segment, region.toString(), String.format(
                    "mem 0x%x, end 0x%x, committed 0x%x, reserved 0x%x are out of order; the region is not walked",
                    start, end, commit, reserve), cause);
            return null;
        }
        if (chase.listening()) {
            chase.emit(new RegionAccepted(region));
        }
        return region;
    }

    private void rejected(HeapRoots heap, int gen, long segment, Rejection reason) {
        rejected(heap.index(), SegmentKind.ofGeneration(gen), segment, reason);
    }

    private void rejected(int heap, SegmentKind kind, long segment, Rejection reason) {
        if (chase.listening()) {
            chase.emit(new RegionRejected(heap, kind, segment, reason));
        }
    }

    /** Regions whose object ranges overlap an earlier one (by address) are corrupt: reported and dropped. */
    List<SubHeap> dropOverlapping(List<SubHeap> heaps) {
        List<Region> all = new ArrayList<>();
        heaps.forEach(h -> all.addAll(h.regions()));
        all.sort((a, b) -> Long.compareUnsigned(a.mem(), b.mem()));
        Set<Region> dropped = new HashSet<>();
        long reach = 0;
        Region previous = null;
        for (Region r : all) {
            if (previous != null && Long.compareUnsigned(r.mem(), reach) < 0 && r.end() != r.mem()) {
                dropped.add(r);
                rejected(r.heap(), r.kind(), r.descriptor(), Rejection.OVERLAPPING);
                chase.problem(ProblemKind.BAD_REGION_BOUNDS, r.descriptor(), r.toString(), String.format(
                        "its objects overlap those of %s; the region is not walked", previous), mem.at(r.descriptor()));
                continue;
            }
            if (Long.compareUnsigned(r.end(), reach) > 0) {
                reach = r.end();
                previous = r;
            }
        }
        if (dropped.isEmpty()) {
            return heaps;
        }
        return heaps.stream().map(h -> new SubHeap(h.index(), h.gcHeap(), h.generationTable(), h.allocAllocated(), h.ephemeralSegment(),
                h.finalizeQueue(), h.regions().stream().filter(r -> !dropped.contains(r)).toList())).toList();
    }
}
