package io.clrheap.walker.discovery;

import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.heap.SubHeap;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.view.AllocContext;
import io.clrheap.layout.view.GcHeap;
import io.clrheap.layout.view.GcHeapVtable;
import io.clrheap.layout.view.HeapSegment;
import io.clrheap.layout.view.SegmentInfo;
import io.clrheap.memory.Memory;
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
 */
public final class InProcessDiscovery {

    private final Target target;
    private final NativeCalls calls;
    private final Memory memory;
    private final RuntimeLayout layout;
    private final WalkLimits limits;
    private final List<Problem> problems = new ArrayList<>();
    private InProcessRoute route;

    /** {@code target} must read the memory of {@code calls}' session ({@code calls.memory()}). */
    public InProcessDiscovery(Target target, NativeCalls calls, WalkLimits limits) {
        this.target = target;
        this.calls = calls;
        this.memory = target.memory();
        this.layout = target.layout();
        this.limits = limits;
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

    public DiscoveredHeap discover() {
        DiscoveredHeap published = new HeapDiscovery(target, limits).discover();
        problems.addAll(published.problems());
        long[] origin = gcHeap(published);
        long gcHeap = origin[1];
        if (gcHeap == 0) {
            problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, 0, "", "no GCHeap: no thread's allocation context has gc_reserved_1 set"
                    + " and g_pGCHeap is 0; nothing is walked"));
            return new DiscoveredHeap(layout.gc(), List.of(), published.contexts(), published.freeMethodTable(), published.gcInProgress(), problems);
        }
        GcHeapVtable vtable;
        long vtableAddress;
        try {
            vtableAddress = target.views().view(GcHeap.class, memory, gcHeap).vtable();
            vtable = target.views().view(GcHeapVtable.class, memory, vtableAddress);
            vtable.diagDescrGenerations();
        } catch (MissingMemoryException e) {
            problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, gcHeap, "", "the GCHeap or its vtable cannot be read ("
                    + e.getMessage() + "); nothing is walked"));
            return new DiscoveredHeap(layout.gc(), List.of(), published.contexts(), published.freeMethodTable(), published.gcInProgress(), problems);
        }
        List<Range> ranges = descrGenerations(gcHeap, vtable.diagDescrGenerations());
        long[] handle = {0};
        List<Region> frozen = frozenSegments(gcHeap, vtable, handle);
        route = new InProcessRoute(origin[0] == 0 ? "" : ownerAt(published, origin[0]), origin[0], gcHeap, vtableAddress,
                vtable.diagDescrGenerations(), ranges.size(), handle[0]);
        return new DiscoveredHeap(layout.gc(), heaps(published, ranges, frozen), published.contexts(), published.freeMethodTable(),
                published.gcInProgress(), problems);
    }

    /**
     * {@code {allocation context, GCHeap}}: the first thread context whose {@code gc_reserved_1} is set (server GC),
     * else {@code {0, g_pGCHeap}} (workstation GC, where the GC never sets it).
     */
    private long[] gcHeap(DiscoveredHeap published) {
        for (AllocContextInfo c : published.contexts()) {
            if (!c.owner().startsWith("thread ")) {
                continue;
            }
            try {
                long heap = target.views().view(AllocContext.class, memory, c.location()).gcReserved1();
                if (heap != 0) {
                    return new long[] {c.location(), heap};
                }
            } catch (MissingMemoryException e) {
                problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, c.location(), "", c.owner() + ": gc_reserved_1 cannot be read"));
            }
        }
        try {
            return new long[] {0, target.globalPointer("g_pGCHeap")};
        } catch (MissingMemoryException e) {
            problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, e.address(), "", "g_pGCHeap cannot be read: " + e.getMessage()));
            return new long[] {0, 0};
        }
    }

    private static String ownerAt(DiscoveredHeap published, long location) {
        return published.contexts().stream().filter(c -> c.location() == location).map(AllocContextInfo::owner).findFirst().orElse("");
    }

    /** Calls slot 69 with a callback collecting every range; a heap ends where the generation goes up again (4 → 0, then 4). */
    private List<Range> descrGenerations(long gcHeap, long function) {
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
            problems.add(new Problem(ProblemKind.TOO_MANY_REGIONS, gcHeap, "", "DiagDescrGenerations reported more than "
                    + limits.maxRegions() + " regions; the rest are not walked"));
        } catch (NativeCallException e) {
            problems.add(new Problem(ProblemKind.NATIVE_CALL_FAILED, e.address(), "", "DiagDescrGenerations: " + e.getMessage()
                    + "; the regions reported before it failed are walked"));
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
    private List<Region> frozenSegments(long gcHeap, GcHeapVtable vtable, long[] handle) {
        List<Region> frozen = new ArrayList<>();
        long info;
        try {
            info = calls.allocate(layout.type("segment_info").size().orElseThrow());
            SegmentInfo.Writable i = target.views().view(SegmentInfo.Writable.class, calls.memory(), info);
            i.mem(0);
            i.firstObject(layout.constant("object.header_size"));
            handle[0] = calls.call(vtable.registerFrozenSegment(), gcHeap, info);
        } catch (NativeCallException | MissingMemoryException e) {
            problems.add(new Problem(ProblemKind.NATIVE_CALL_FAILED, gcHeap, "", "RegisterFrozenSegment: " + e.getMessage()
                    + "; frozen segments are not walked"));
            return frozen;
        }
        long readonly = layout.constant("heap_segment.flags.readonly");
        try {
            Set<Long> seen = new HashSet<>();
            long segment = target.views().view(HeapSegment.class, memory, handle[0]).next();
            while (segment != 0) {
                if (!seen.add(segment) || seen.size() > limits.maxRegions()) {
                    problems.add(new Problem(ProblemKind.SEGMENT_CYCLE, segment, "heap 0 gen2 list",
                            "the list after the dummy frozen segment does not end; it is cut here"));
                    break;
                }
                HeapSegment s = target.views().view(HeapSegment.class, memory, segment);
                long flags = s.flags();
                if ((flags & readonly) != 0) {
                    frozen.add(new Region(0, SegmentKind.FROZEN, segment, s.mem(), s.allocated(), s.allocated(), s.committed(),
                            s.reserved(), flags, false));
                }
                segment = s.next();
            }
        } catch (MissingMemoryException e) {
            problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, e.address(), "heap 0 gen2 list",
                    "a heap_segment after the dummy frozen segment cannot be read (" + e.getMessage() + "); the list is cut here"));
        } finally {
            try {
                calls.call(vtable.unregisterFrozenSegment(), gcHeap, handle[0]);
                calls.free(info);
            } catch (NativeCallException | MissingMemoryException e) {
                problems.add(new Problem(ProblemKind.NATIVE_CALL_FAILED, handle[0], "", "UnregisterFrozenSegment: " + e.getMessage()));
            }
        }
        return frozen;
    }

    /**
     * The heaps: the calls' ranges by heap (the ephemeral region, the gen0 region holding the heap's
     * {@code alloc_allocated}, ends there), frozen segments in heap 0's gen2 first, in the dump path's order.
     */
    private List<SubHeap> heaps(DiscoveredHeap published, List<Range> ranges, List<Region> frozen) {
        int count = ranges.isEmpty() ? 0 : ranges.get(ranges.size() - 1).heap() + 1;
        if (count != published.heaps().size() && !ranges.isEmpty()) {
            problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, 0, "", String.format(
                    "DiagDescrGenerations reported %d heap%s, the GC's globals list %d", count, count == 1 ? "" : "s", published.heaps().size())));
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
                            problems.add(new Problem(ProblemKind.BAD_REGION_BOUNDS, r.mem(), region.toString(), String.format(
                                    "DiagDescrGenerations reported mem 0x%x, end 0x%x, reserved 0x%x out of order; the region is not walked",
                                    r.mem(), region.end(), r.reserved())));
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
