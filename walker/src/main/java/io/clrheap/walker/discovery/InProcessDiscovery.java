package io.clrheap.walker.discovery;

import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.heap.SubHeap;

import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.view.SegmentInfo;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.process.NativeCallException;
import io.clrheap.process.NativeCalls;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.ProblemKind;
import io.clrheap.walker.heap.WalkLimits;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The in-process path of discovery, the source article's (docs/reference/clr-layouts.md section 1), made exact: a thread's
 * allocation context → {@code gc_reserved_1} = the {@code GCHeap} it allocates on (server GC; workstation GC leaves it
 * 0, and {@code g_pGCHeap} is used) → its vtable, slot 69 {@code DiagDescrGenerations}, called with a callback that
 * receives {@code (generation, mem, allocated, reserved)} for every read-write region, heap by heap, generation 4 down
 * to 0. Frozen segments, which that call skips, come from a dummy segment registered through slot 73
 * {@code RegisterFrozenSegment}: it is put at the head of heap 0's gen2 list, so its {@code next} chain holds every
 * read-only segment; slot 74 unregisters it again.
 *
 * <p>The calls report {@code heap_segment.allocated}, which lags on the ephemeral region (the article forces a GC
 * first for that reason). The walk also needs what the calls do not tell: every allocation context to skip and each
 * heap's {@code alloc_allocated}. Those are read as the dump path reads them ({@link HeapDiscovery}); the regions come
 * only from the calls, so comparing the two paths' regions checks one against the other.
 *
 * <p>A {@link DiscoveryListener} sees the dump path's events, then this path's reads (gc_reserved_1, g_pGCHeap, the
 * GCHeap and its vtable, the frozen segments' chain), {@link GcHeapFound}, the frozen regions, and the heap found.
 */
public final class InProcessDiscovery {

    private final Target target;
    private final NativeCalls calls;
    private final RuntimeLayout layout;
    private final WalkLimits limits;
    private final DiscoveryListener listener;
    private InProcessRoute route;

    /** {@code target} must read the memory of {@code calls}' session ({@code calls.memory()}). */
    public InProcessDiscovery(Target target, NativeCalls calls, WalkLimits limits, DiscoveryListener listener) {
        this.target = target;
        this.calls = calls;
        this.layout = target.layout();
        this.limits = limits;
        this.listener = listener;
    }

    public InProcessDiscovery(Target target, NativeCalls calls, WalkLimits limits) {
        this(target, calls, limits, DiscoveryListener.NONE);
    }

    public InProcessDiscovery(Target target, NativeCalls calls) {
        this(target, calls, WalkLimits.DEFAULT);
    }

    /** The way the last {@link #discover()} went (null before it ran, or when no GCHeap was found). */
    public InProcessRoute route() {
        return route;
    }

    /** A range {@code DiagDescrGenerations} reported, with the heap it belongs to (counted from the call order). */
    private record Range(int heap, int generation, long mem, long allocated, long reserved) {
    }

    /** The three IGCHeap vtable slots the path calls. */
    private record Slots(long descrGenerations, long registerFrozenSegment, long unregisterFrozenSegment) {
    }

    public DiscoveredHeap discover() {
        DiscoveredHeap published = new HeapDiscovery(target, limits, listener).discover();
        Chase chase = new Chase(target, limits, listener);
        DiscoveredHeap heap = discover(chase, published);
        if (chase.listening()) {
            chase.emit(new HeapDiscovered(heap));
        }
        return heap;
    }

    private DiscoveredHeap discover(Chase chase, DiscoveredHeap published) {
        List<Problem> problems = chase.problems();
        long[] origin = gcHeap(chase, published);
        long gcHeap = origin[1];
        if (gcHeap == 0) {
            chase.problem(ProblemKind.UNREADABLE_STRUCTURE, 0, "", "no GCHeap: no thread's allocation context has gc_reserved_1 set"
                    + " and g_pGCHeap is 0; nothing is walked", null);
            return new DiscoveredHeap(layout.gc(), List.of(), published.contexts(), published.freeMethodTable(), published.gcInProgress(),
                    all(published, problems));
        }
        String owner = origin[0] == 0 ? "" : ownerAt(published, origin[0]);
        if (chase.listening()) {
            chase.emit(new GcHeapFound(owner, origin[0], gcHeap));
        }
        long vtable;
        Slots slots;
        try {
            vtable = chase.read(chase.field("GCHeap", "vtable"), gcHeap);
            slots = new Slots(chase.read(chase.field("IGCHeapVtable", "DiagDescrGenerations"), vtable),
                    chase.read(chase.field("IGCHeapVtable", "RegisterFrozenSegment"), vtable),
                    chase.read(chase.field("IGCHeapVtable", "UnregisterFrozenSegment"), vtable));
        } catch (MissingMemoryException e) {
            chase.problem(ProblemKind.UNREADABLE_STRUCTURE, gcHeap, "", "the GCHeap or its vtable cannot be read ("
                    + e.getMessage() + "); nothing is walked", chase.failedRead());
            return new DiscoveredHeap(layout.gc(), List.of(), published.contexts(), published.freeMethodTable(), published.gcInProgress(),
                    all(published, problems));
        }
        List<Range> ranges = descrGenerations(chase, gcHeap, slots.descrGenerations());
        long[] handle = {0};
        List<Region> frozen = frozenSegments(chase, gcHeap, slots, handle);
        route = new InProcessRoute(owner, origin[0], gcHeap, vtable, slots.descrGenerations(), ranges.size(), handle[0]);
        List<SubHeap> heaps = heaps(chase, published, ranges, frozen);
        return new DiscoveredHeap(layout.gc(), heaps, published.contexts(), published.freeMethodTable(), published.gcInProgress(),
                all(published, problems));
    }

    private static List<Problem> all(DiscoveredHeap published, List<Problem> own) {
        List<Problem> all = new ArrayList<>(published.problems());
        all.addAll(own);
        return all;
    }

    /**
     * {@code {allocation context, GCHeap}}: the first thread context whose {@code gc_reserved_1} is set (server GC),
     * else {@code {0, g_pGCHeap}} (workstation GC, where the GC never sets it).
     */
    private long[] gcHeap(Chase chase, DiscoveredHeap published) {
        FieldSpec reserved = chase.field("gc_alloc_context", "gc_reserved_1");
        for (AllocContextInfo c : published.contexts()) {
            if (!c.owner().startsWith("thread ")) {
                continue;
            }
            try {
                long heap = chase.read(reserved, c.location());
                if (heap != 0) {
                    return new long[] {c.location(), heap};
                }
            } catch (MissingMemoryException e) {
                chase.problem(ProblemKind.UNREADABLE_STRUCTURE, c.location(), "", c.owner() + ": gc_reserved_1 cannot be read", chase.failedRead());
            }
        }
        try {
            return new long[] {0, chase.globalPointer("g_pGCHeap")};
        } catch (MissingMemoryException e) {
            chase.problem(ProblemKind.UNREADABLE_STRUCTURE, e.address(), "", "g_pGCHeap cannot be read: " + e.getMessage(), chase.failedRead());
            return new long[] {0, 0};
        }
    }

    private static String ownerAt(DiscoveredHeap published, long location) {
        return published.contexts().stream().filter(c -> c.location() == location).map(AllocContextInfo::owner).findFirst().orElse("");
    }

    /** Calls slot 69 with a callback collecting every range; a heap ends where the generation goes up again (4 → 0, then 4). */
    private List<Range> descrGenerations(Chase chase, long gcHeap, long function) {
        List<Range> ranges = new ArrayList<>();
        int[] heap = {0};
        int[] last = {Integer.MAX_VALUE};
        long callback = calls.callback(args -> {
            // fn(void* context, int generation, uint8_t* range_start, uint8_t* range_end, uint8_t* range_reserved)
            int generation = (int) args[1];
            if (generation > last[0]) {
                heap[0]++;
            }
            last[0] = generation;
            if (ranges.size() >= limits.maxRegions()) {
                throw new RegionBudgetExceeded();
            }
            ranges.add(new Range(heap[0], generation, args[2], args[3], args[4]));
            return 0;
        });
        try {
            calls.call(function, gcHeap, callback, 0);
        } catch (RegionBudgetExceeded e) {
            chase.problem(ProblemKind.TOO_MANY_REGIONS, gcHeap, "", "DiagDescrGenerations reported more than "
                    + limits.maxRegions() + " regions; the rest are not walked", null);
        } catch (NativeCallException e) {
            chase.problem(ProblemKind.NATIVE_CALL_FAILED, e.address(), "", "DiagDescrGenerations: " + e.getMessage()
                    + "; the regions reported before it failed are walked", null);
        }
        return ranges;
    }

    /** Thrown by the callback to stop a call that reports more regions than the limit. */
    private static final class RegionBudgetExceeded extends RuntimeException {
        RegionBudgetExceeded() {
            super(null, null, false, false);
        }
    }

    /**
     * Registers an empty dummy frozen segment ({@code GC._RegisterFrozenSegment(0, 0)} passes pvMem 0,
     * ibFirstObject = the object header size, the rest 0), follows its {@code next} chain and keeps every read-only
     * segment, then unregisters the dummy.
     */
    private List<Region> frozenSegments(Chase chase, long gcHeap, Slots slots, long[] handle) {
        List<Region> frozen = new ArrayList<>();
        long info;
        try {
            info = calls.allocate(layout.type("segment_info").size().orElseThrow());
            SegmentInfo.Writable i = target.views().view(SegmentInfo.Writable.class, calls.memory(), info);
            i.mem(0);
            i.firstObject(layout.constant("object.header_size"));
            handle[0] = calls.call(slots.registerFrozenSegment(), gcHeap, info);
        } catch (NativeCallException | MissingMemoryException e) {
            chase.problem(ProblemKind.NATIVE_CALL_FAILED, gcHeap, "", "RegisterFrozenSegment: " + e.getMessage()
                    + "; frozen segments are not walked", null);
            return frozen;
        }
        try {
            followFrozen(chase, handle[0], frozen);
        } finally {
            try {
                calls.call(slots.unregisterFrozenSegment(), gcHeap, handle[0]);
                calls.free(info);
            } catch (NativeCallException | MissingMemoryException e) {
                chase.problem(ProblemKind.NATIVE_CALL_FAILED, handle[0], "", "UnregisterFrozenSegment: " + e.getMessage(), null);
            }
        }
        return frozen;
    }

    /** The dummy's {@code next} chain (heap 0's gen2 list): every read-only segment in it is a frozen region. */
    private void followFrozen(Chase chase, long dummy, List<Region> frozen) {
        FieldSpec next = chase.field("heap_segment", "next");
        FieldSpec flags = chase.field("heap_segment", "flags");
        FieldSpec mem = chase.field("heap_segment", "mem");
        FieldSpec allocated = chase.field("heap_segment", "allocated");
        FieldSpec committed = chase.field("heap_segment", "committed");
        FieldSpec reserved = chase.field("heap_segment", "reserved");
        long readonly = layout.constant("heap_segment.flags.readonly");
        Set<Long> seen = new HashSet<>();
        long from = dummy;
        try {
            long segment = chase.read(next, dummy);
            while (segment != 0) {
                if (!seen.add(segment) || seen.size() > limits.maxRegions()) {
                    chase.problem(ProblemKind.SEGMENT_CYCLE, segment, "heap 0 gen2 list",
                            "the list after the dummy frozen segment does not end; it is cut here", next.at(from));
                    break;
                }
                if (chase.listening()) {
                    chase.emit(new SegmentEntered(0, 2, segment));
                }
                long bits = chase.read(flags, segment);
                if ((bits & readonly) != 0) {
                    long end = chase.read(allocated, segment);
                    Region region = new Region(0, SegmentKind.FROZEN, segment, chase.read(mem, segment), end, end, chase.read(committed, segment),
                            chase.read(reserved, segment), bits, false);
                    frozen.add(region);
                    if (chase.listening()) {
                        chase.emit(new RegionAccepted(region));
                    }
                }
                from = segment;
                segment = chase.read(next, segment);
            }
        } catch (MissingMemoryException e) {
            chase.problem(ProblemKind.UNREADABLE_STRUCTURE, e.address(), "heap 0 gen2 list",
                    "a heap_segment after the dummy frozen segment cannot be read (" + e.getMessage() + "); the list is cut here", chase.failedRead());
        }
    }

    /**
     * The heaps: the calls' ranges by heap (the ephemeral region, the gen0 region holding the heap's
     * {@code alloc_allocated}, ends there), frozen segments in heap 0's gen2 first, in the dump path's order.
     */
    private List<SubHeap> heaps(Chase chase, DiscoveredHeap published, List<Range> ranges, List<Region> frozen) {
        int count = ranges.isEmpty() ? 0 : ranges.get(ranges.size() - 1).heap() + 1;
        if (count != published.heaps().size() && !ranges.isEmpty()) {
            chase.problem(ProblemKind.UNREADABLE_STRUCTURE, 0, "", String.format(
                    "DiagDescrGenerations reported %d heap%s, the GC's globals list %d", count, count == 1 ? "" : "s", published.heaps().size()), null);
        }
        List<SubHeap> heaps = new ArrayList<>();
        for (int h = 0; h < count; h++) {
            SubHeap globals = h < published.heaps().size() ? published.heaps().get(h) : null;
            long allocAllocated = globals == null ? 0 : globals.allocAllocated();
            List<Region> regions = new ArrayList<>();
            if (h == 0) {
                regions.addAll(frozen);
            }
            final int heap = h;
            boolean[] ephemeralFound = {false};
            ranges.stream().filter(r -> r.heap() == heap)
                    .sorted(Comparator.comparingInt(r -> List.of(2, 1, 0, 3, 4).indexOf(r.generation())))
                    .forEach(r -> {
                        boolean ephemeral = !ephemeralFound[0] && r.generation() == 0 && allocAllocated != 0
                                && Long.compareUnsigned(r.mem(), allocAllocated) <= 0 && Long.compareUnsigned(allocAllocated, r.reserved()) <= 0;
                        ephemeralFound[0] |= ephemeral;
                        Region region = new Region(heap, SegmentKind.ofGeneration(r.generation()), 0, r.mem(),
                                ephemeral ? allocAllocated : r.allocated(), r.allocated(), 0, r.reserved(), 0, ephemeral);
                        if (!ephemeral && r.allocated() == 0) {
                            return; // a freed region (heap_segment.allocated 0), as the dump path skips it
                        }
                        if (Long.compareUnsigned(region.end(), region.mem()) < 0 || Long.compareUnsigned(region.end(), region.reserved()) > 0) {
                            chase.problem(ProblemKind.BAD_REGION_BOUNDS, r.mem(), region.toString(), String.format(
                                    "DiagDescrGenerations reported mem 0x%x, end 0x%x, reserved 0x%x out of order; the region is not walked",
                                    r.mem(), region.end(), r.reserved()), null);
                            return;
                        }
                        regions.add(region);
                    });
            heaps.add(new SubHeap(h, globals == null ? 0 : globals.gcHeap(), globals == null ? 0 : globals.generationTable(), allocAllocated,
                    globals == null ? 0 : globals.ephemeralSegment(), globals == null ? 0 : globals.finalizeQueue(), regions));
        }
        return heaps;
    }
}
