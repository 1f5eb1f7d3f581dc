package io.clrheap.walker.discovery;

import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.heap.SubHeap;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.view.AllocContext;
import io.clrheap.layout.view.GcDacVars;
import io.clrheap.layout.view.HeapSegment;
import io.clrheap.layout.view.NativeThread;
import io.clrheap.layout.view.ThreadStore;
import io.clrheap.layout.view.ViewType;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.ProblemKind;
import io.clrheap.walker.heap.WalkLimits;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The dump path of discovery (docs/reference/discovery.md sections 5-8): {@code g_gcDacGlobals} → GcDacVars → heaps (server:
 * {@code n_heaps}, {@code g_heaps} and the published {@code gc_heap} field offsets; workstation: the static
 * members) → generation tables (stride {@code generation_size}, field offsets as published) → region chains; the
 * ephemeral region ends at {@code alloc_allocated}. Then the thread store → every thread's allocation context,
 * each heap's gen0 context and the global one.
 */
public final class HeapDiscovery {

    /** Index of {@code generation_table} in the published gc_heap field offsets (GENERATION_TABLE_FIELD_INDEX: DACH). */
    private static final String[] GC_HEAP_FIELDS = {"alloc_allocated", "ephemeral_heap_segment", "finalize_queue", "generation_table"};

    private final Target target;
    private final Memory memory;
    private final RuntimeLayout layout;
    private final WalkLimits limits;
    private final List<Problem> problems = new ArrayList<>();

    public HeapDiscovery(Target target, WalkLimits limits) {
        this.target = target;
        this.memory = target.memory();
        this.layout = target.layout();
        this.limits = limits;
    }

    public HeapDiscovery(Target target) {
        this(target, WalkLimits.DEFAULT);
    }

    public DiscoveredHeap discover() {
        GcDacVars vars = target.views().view(GcDacVars.class, memory, target.globalPointer("g_gcDacGlobals"));
        long stride;
        try {
            stride = vars.generationSize();
        } catch (MissingMemoryException e) { // a dump whose GcDacVars bytes were not captured (found by fuzzing)
            problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, vars.address(), "",
                    "GcDacVars cannot be read (" + e.getMessage() + "); no heap is walked"));
            return new DiscoveredHeap(layout.gc(), List.of(), List.of(), target.globalPointer("g_pFreeObjectMethodTable"), false, problems);
        }
        long[] generationOffsets = publishedGenerationOffsets(vars);
        boolean gcInProgress = readsNonZero(vars.gcStructuresInvalidCnt());
        if (gcInProgress) {
            problems.add(new Problem(ProblemKind.GC_IN_PROGRESS, vars.gcStructuresInvalidCnt(), "",
                    "gc_structures_invalid_cnt is not 0: the dump was taken during a GC; objects may be moving"));
        }
        List<HeapRoots> roots = layout.gc() == GcFlavor.SERVER ? serverHeaps(vars) : workstationHeap(vars);
        Set<Long> seen = new HashSet<>();
        int[] regionBudget = {limits.maxRegions()};
        List<SubHeap> heaps = new ArrayList<>();
        List<AllocContextInfo> contexts = new ArrayList<>();
        for (HeapRoots r : roots) {
            heaps.add(new SubHeap(r.index, r.gcHeap, r.generationTable, r.allocAllocated, r.ephemeralSegment, r.finalizeQueue,
                    regions(r, stride, generationOffsets[1], seen, regionBudget)));
            long gen0Context = r.generationTable + generationOffsets[0];
            contexts.add(context("heap " + r.index + " gen0", gen0Context));
        }
        dropOverlapping(heaps);
        contexts.addAll(threadContexts());
        contexts.add(globalContext());
        long freeMt = target.globalPointer("g_pFreeObjectMethodTable");
        return new DiscoveredHeap(layout.gc(), heaps, contexts.stream().filter(this::plausible).toList(), freeMt, gcInProgress, problems);
    }

    private boolean readsNonZero(long address) {
        try {
            return memory.readInt(address) != 0;
        } catch (MissingMemoryException e) {
            problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, address, "", "gc_structures_invalid_cnt cannot be read: " + e.getMessage()));
            return false;
        }
    }

    /** allocation_context and start_segment offsets as the runtime publishes them; the profile's when unreadable. */
    private long[] publishedGenerationOffsets(GcDacVars vars) {
        long[] profile = {layout.offset("generation", "allocation_context"), layout.offset("generation", "start_segment")};
        long array = vars.generationFieldOffsets();
        if (array == 0) {
            return profile;
        }
        long[] published;
        try {
            published = new long[] {memory.readInt(array), memory.readInt(array + 4)};
        } catch (MissingMemoryException e) { // found by fuzzing: the array's page missing from the core
            problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, array, "",
                    "generation_field_offsets cannot be read (" + e.getMessage() + "); using the profile's offsets"));
            return profile;
        }
        for (int i = 0; i < 2; i++) {
            if (published[i] != profile[i]) {
                problems.add(new Problem(ProblemKind.OFFSET_MISMATCH, array + 4L * i, "", String.format(
                        "generation_field_offsets[%d] = %d, the profile says %d; using the published offset", i, published[i], profile[i])));
            }
        }
        return published;
    }

    private record HeapRoots(int index, long gcHeap, long generationTable, long allocAllocated, long ephemeralSegment, long finalizeQueue) {
    }

    private List<HeapRoots> workstationHeap(GcDacVars vars) {
        try {
            return List.of(new HeapRoots(0, 0, vars.generationTable(), memory.readPointer(vars.allocAllocated()),
                    memory.readPointer(vars.ephemeralHeapSegment()), memory.readPointer(vars.finalizeQueue())));
        } catch (MissingMemoryException e) {
            problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, vars.address(), "heap 0",
                    "the workstation heap's alloc_allocated, ephemeral_heap_segment or finalize_queue cannot be read ("
                            + e.getMessage() + "); no heap is walked"));
            return List.of();
        }
    }

    private List<HeapRoots> serverHeaps(GcDacVars vars) {
        int count;
        try {
            count = memory.readInt(vars.nHeaps());
        } catch (MissingMemoryException e) {
            problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, vars.nHeaps(), "", "n_heaps cannot be read (" + e.getMessage() + "); no heap is walked"));
            return List.of();
        }
        long heapArray;
        long[] offsets;
        try {
            heapArray = memory.readPointer(vars.gHeaps());
            offsets = publishedGcHeapOffsets(vars.gcHeapFieldOffsets());
        } catch (MissingMemoryException e) {
            problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, vars.gHeaps(), "", "g_heaps or gc_heap_field_offsets cannot be read ("
                    + e.getMessage() + "); no heap is walked"));
            return List.of();
        }
        if (offsets == null) {
            return List.of();
        }
        if (count < 1 || count > limits.maxHeaps()) {
            // One corrupt int should not hide every heap: g_heaps still lists them, and each gc_heap owns its
            // ephemeral region (heap_segment.heap points back to it), which a stray pointer does not
            int counted = countHeaps(heapArray, offsets[1]);
            problems.add(new Problem(ProblemKind.BAD_HEAP_COUNT, vars.nHeaps(), "", String.format(
                    "n_heaps is %d, outside 1..%d; %s", count, limits.maxHeaps(), counted == 0
                            ? "no entry of g_heaps is a gc_heap owning its ephemeral region; no heap is walked"
                            : "the first " + counted + " entries of g_heaps are gc_heaps owning their ephemeral region; those are walked")));
            count = counted;
        }
        List<HeapRoots> heaps = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long heap = 0;
            try {
                heap = memory.readPointer(heapArray + 8L * i);
                heaps.add(new HeapRoots(i, heap, heap + offsets[3], memory.readPointer(heap + offsets[0]),
                        memory.readPointer(heap + offsets[1]), memory.readPointer(heap + offsets[2])));
            } catch (MissingMemoryException e) {
                problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, heap == 0 ? heapArray + 8L * i : heap, "heap " + i,
                        String.format("g_heaps[%d] (gc_heap 0x%x) cannot be read (%s); this heap is not walked", i, heap, e.getMessage())));
            }
        }
        return heaps;
    }

    /**
     * How many leading entries of {@code g_heaps} are gc_heaps whose ephemeral region's {@code heap_segment.heap}
     * points back to them (at most {@link WalkLimits#maxHeaps()}): the heap count when n_heaps cannot be believed.
     * Builds without {@code heap_segment.heap} give 0.
     */
    private int countHeaps(long heapArray, long ephemeralSegmentOffset) {
        if (layout.type("heap_segment").findField("heap").isEmpty()) {
            return 0;
        }
        long owner = layout.offset("heap_segment", "heap");
        int n = 0;
        try {
            for (; n < limits.maxHeaps(); n++) {
                long heap = memory.readPointer(heapArray + 8L * n);
                long ephemeral = heap == 0 ? 0 : memory.readPointer(heap + ephemeralSegmentOffset);
                if (ephemeral == 0 || memory.readPointer(ephemeral + owner) != heap) {
                    break;
                }
            }
        } catch (MissingMemoryException e) {
            // the entry, its gc_heap or its region is not in the dump: the heaps end before it
        }
        return n;
    }

    /**
     * The gc_heap offsets of the four fields discovery reads, from the array the GC publishes (dacFieldOrder.gc_heap);
     * null (with a problem) when the build says it has no such field.
     */
    private long[] publishedGcHeapOffsets(long array) {
        List<String> order = layout.dacFieldOrder().get("gc_heap");
        long[] offsets = new long[GC_HEAP_FIELDS.length];
        for (int f = 0; f < GC_HEAP_FIELDS.length; f++) {
            String name = GC_HEAP_FIELDS[f];
            long profile = layout.offset("gc_heap", name);
            int index = order.indexOf(name);
            long published = memory.readInt(array + 4L * index);
            if (published < 0) {
                problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, array + 4L * index, "", String.format(
                        "gc_heap_field_offsets[%d] (%s) is %d: this build publishes no such gc_heap field; no heap is walked",
                        index, name, published)));
                return null;
            }
            if (published != profile) {
                problems.add(new Problem(ProblemKind.OFFSET_MISMATCH, array + 4L * index, "", String.format(
                        "gc_heap_field_offsets[%d] (%s) = %d, the profile says %d; using the published offset", index, name, published, profile)));
            }
            offsets[f] = published;
        }
        return offsets;
    }

    /** Regions of one heap: gen2 (frozen segments first), gen1, gen0, LOH, POH (GCMD EnumerateHeapSegments order). */
    private List<Region> regions(HeapRoots heap, long stride, long startSegmentOffset, Set<Long> seen, int[] budget) {
        ViewType<HeapSegment> segments = target.views().bind(HeapSegment.class, memory);
        long readonly = layout.constant("heap_segment.flags.readonly");
        List<Region> regions = new ArrayList<>();
        for (int gen : new int[] {2, 1, 0, 3, 4}) {
            long generation = heap.generationTable + gen * stride;
            long segment;
            try {
                segment = memory.readPointer(generation + startSegmentOffset);
            } catch (MissingMemoryException e) {
                problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, generation, "heap " + heap.index,
                        "generation " + gen + " cannot be read: " + e.getMessage()));
                continue;
            }
            Set<Long> chain = new HashSet<>();
            while (segment != 0) {
                if (!chain.add(segment)) {
                    problems.add(new Problem(ProblemKind.SEGMENT_CYCLE, segment, "heap " + heap.index + " gen" + gen + " list",
                            "this heap_segment comes again in the same list; the chain is cut here"));
                    break;
                }
                if (!seen.add(segment)) {
                    break; // already listed from another generation's list (segments mode: gen0/gen1 start in gen2's); so is the rest
                }
                if (budget[0]-- <= 0) {
                    problems.add(new Problem(ProblemKind.TOO_MANY_REGIONS, segment, "heap " + heap.index + " gen" + gen + " list",
                            "more than " + limits.maxRegions() + " regions; the rest are not followed"));
                    break;
                }
                HeapSegment s = segments.at(segment);
                long next;
                try {
                    next = s.next();
                    Region region = region(heap, gen, s, readonly);
                    if (region != null) {
                        regions.add(region);
                    }
                } catch (MissingMemoryException e) {
                    problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, segment, "heap " + heap.index + " gen" + gen + " list",
                            "heap_segment cannot be read (" + e.getMessage() + "); the chain is cut here"));
                    break;
                }
                segment = next;
            }
        }
        return regions;
    }

    private Region region(HeapRoots heap, int gen, HeapSegment s, long readonly) {
        long flags = s.flags();
        SegmentKind kind = (flags & readonly) != 0 ? SegmentKind.FROZEN : SegmentKind.ofGeneration(gen);
        boolean ephemeral = s.address() == heap.ephemeralSegment;
        long mem = s.mem();
        long allocated = s.allocated();
        long end = ephemeral ? heap.allocAllocated : allocated;
        long reserved = s.reserved();
        Region region = new Region(heap.index, kind, s.address(), mem, end, allocated, s.committed(), reserved, flags, ephemeral);
        if (allocated == 0 && !ephemeral) {
            return null; // allocated 0 marks a freed region (gcpriv.h heap_segment.allocated): nothing to walk
        }
        long committed = region.committed();
        // mem <= end <= committed <= reserved: a region's objects lie in memory the GC committed
        if (Long.compareUnsigned(end, mem) < 0 || Long.compareUnsigned(end, committed) > 0 || Long.compareUnsigned(committed, reserved) > 0) {
            problems.add(new Problem(ProblemKind.BAD_REGION_BOUNDS, s.address(), region.toString(), String.format(
                    "mem 0x%x, end 0x%x, committed 0x%x, reserved 0x%x are out of order; the region is not walked",
                    mem, end, committed, reserved)));
            return null;
        }
        return region;
    }

    /** Regions whose object ranges overlap an earlier one (by address) are corrupt: reported and dropped. */
    private void dropOverlapping(List<SubHeap> heaps) {
        List<Region> all = new ArrayList<>();
        heaps.forEach(h -> all.addAll(h.regions()));
        all.sort((a, b) -> Long.compareUnsigned(a.mem(), b.mem()));
        Set<Region> dropped = new HashSet<>();
        long reach = 0;
        Region previous = null;
        for (Region r : all) {
            if (previous != null && Long.compareUnsigned(r.mem(), reach) < 0 && r.end() != r.mem()) {
                dropped.add(r);
                problems.add(new Problem(ProblemKind.BAD_REGION_BOUNDS, r.descriptor(), r.toString(), String.format(
                        "its objects overlap those of %s; the region is not walked", previous)));
                continue;
            }
            if (Long.compareUnsigned(r.end(), reach) > 0) {
                reach = r.end();
                previous = r;
            }
        }
        if (!dropped.isEmpty()) {
            heaps.replaceAll(h -> new SubHeap(h.index(), h.gcHeap(), h.generationTable(), h.allocAllocated(), h.ephemeralSegment(),
                    h.finalizeQueue(), h.regions().stream().filter(r -> !dropped.contains(r)).toList()));
        }
    }

    private List<AllocContextInfo> threadContexts() {
        List<AllocContextInfo> contexts = new ArrayList<>();
        long storeAddress;
        ThreadStore store;
        try {
            storeAddress = target.globalPointer("ThreadStore::s_pThreadStore");
            store = target.views().view(ThreadStore.class, memory, storeAddress);
        } catch (MissingMemoryException e) {
            problems.add(new Problem(ProblemKind.BAD_THREAD_LIST, 0, "", "the thread store cannot be read: " + e.getMessage()));
            return contexts;
        }
        ViewType<NativeThread> threads = target.views().bind(NativeThread.class, memory);
        long linkOffset = layout.offset("Thread", "LinkNext");
        Set<Long> seen = new HashSet<>();
        long link;
        try {
            link = store.firstThreadLink();
        } catch (MissingMemoryException e) {
            problems.add(new Problem(ProblemKind.BAD_THREAD_LIST, storeAddress, "", "ThreadStore cannot be read: " + e.getMessage()));
            return contexts;
        }
        while (link != 0) {
            if (!seen.add(link) || seen.size() > limits.maxThreads()) {
                problems.add(new Problem(ProblemKind.BAD_THREAD_LIST, link, "", "the thread list does not end; it is cut here"));
                break;
            }
            NativeThread thread = threads.at(link - linkOffset);
            try {
                String owner = "thread " + Integer.toUnsignedString(thread.id())
                        + (thread.hasOsId() ? " (tid " + thread.osId() + ")" : "");
                long location = threadContextLocation(thread);
                if (location != 0) {
                    contexts.add(context(owner, location));
                }
                link = thread.linkNext();
            } catch (MissingMemoryException e) {
                problems.add(new Problem(ProblemKind.BAD_THREAD_LIST, thread.address(), "",
                        "Thread cannot be read (" + e.getMessage() + "); the list is cut here"));
                break;
            }
        }
        return contexts;
    }

    /** .NET 8: inline in Thread; 9 and 10: in RuntimeThreadLocals (an ee_alloc_context wraps it in 10). 0 if none. */
    private long threadContextLocation(NativeThread thread) {
        if (thread.hasInlineAllocContext()) {
            return thread.inlineAllocContext().address();
        }
        long locals = thread.runtimeThreadLocals();
        if (locals == 0) {
            return 0;
        }
        return locals + layout.offset("RuntimeThreadLocals", "AllocContext") + gcContextOffsetIn(layout.field("RuntimeThreadLocals", "AllocContext").type().element());
    }

    /** Where the gc_alloc_context sits inside a context of the given type. */
    private long gcContextOffsetIn(String contextType) {
        return contextType.equals("ee_alloc_context") ? layout.offset("ee_alloc_context", "m_GCAllocContext") : 0;
    }

    /** g_global_alloc_context: a gc_alloc_context in 8 and 9, an ee_alloc_context in 10. */
    private AllocContextInfo globalContext() {
        long variable = target.globalAddress("g_global_alloc_context");
        String type = layout.findType("ee_alloc_context").isPresent() ? "ee_alloc_context" : "gc_alloc_context";
        return context("global", variable + gcContextOffsetIn(type));
    }

    private AllocContextInfo context(String owner, long location) {
        try {
            AllocContext c = target.views().view(AllocContext.class, memory, location);
            return new AllocContextInfo(owner, location, c.allocPtr(), c.allocLimit());
        } catch (MissingMemoryException e) {
            problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, location, "", "the allocation context of " + owner
                    + " cannot be read: " + e.getMessage()));
            return new AllocContextInfo(owner, location, 0, 0);
        }
    }

    private boolean plausible(AllocContextInfo c) {
        if (c.inUse() && Long.compareUnsigned(c.pointer(), c.limit()) > 0) {
            problems.add(new Problem(ProblemKind.BAD_ALLOC_CONTEXT, c.location(), "", String.format(
                    "%s: alloc_ptr 0x%x is above alloc_limit 0x%x; the context is ignored", c.owner(), c.pointer(), c.limit())));
            return false;
        }
        return true;
    }
}
