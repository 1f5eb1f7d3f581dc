package io.clrheap.walker.discovery;

import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.ManagedThread;
import io.clrheap.walker.heap.ThreadStoreList;
import io.clrheap.walker.heap.FieldRead;
import io.clrheap.walker.heap.ProblemKind;
import io.clrheap.walker.heap.SubHeap;
import io.clrheap.walker.heap.WalkLimits;
import io.clrheap.walker.runtime.GcMode;
import io.clrheap.walker.runtime.Target;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The dump path of discovery (docs/reference/discovery.md sections 5-8): {@code g_gcDacGlobals} → GcDacVars → heaps (server:
 * {@code n_heaps}, {@code g_heaps} and the published {@code gc_heap} field offsets; workstation: the static
 * members) → generation tables (stride {@code generation_size}, field offsets as published) → region chains; the
 * ephemeral region ends at {@code alloc_allocated}. Then the thread store → every thread's allocation context,
 * each heap's gen0 context and the global one.
 *
 * <p>The only implementation of this chase: {@code walk} runs it without a listener, {@code clrheap explain} with one
 * that renders every read and step it makes ({@link DiscoveryListener}).
 */
public final class HeapDiscovery {

    private final Target target;
    private final RuntimeLayout layout;
    private final WalkLimits limits;
    private final DiscoveryListener listener;

    public HeapDiscovery(Target target, WalkLimits limits, DiscoveryListener listener) {
        this.target = target;
        this.layout = target.layout();
        this.limits = limits;
        this.listener = listener;
    }

    public HeapDiscovery(Target target, WalkLimits limits) {
        this(target, limits, DiscoveryListener.NONE);
    }

    public HeapDiscovery(Target target) {
        this(target, WalkLimits.DEFAULT);
    }

    /** Each call is a discovery of its own: its reads are made again, its events told again. */
    public DiscoveredHeap discover() {
        Chase chase = new Chase(target, limits, listener);
        DiscoveredHeap heap = discover(chase);
        if (chase.listening()) {
            chase.emit(new HeapDiscovered(heap));
        }
        return heap;
    }

    /** The thread store's threads (ThreadStore::s_pThreadStore's list), read on their own: what stack scans start from. */
    public ThreadStoreList threads() {
        Chase chase = new Chase(target, limits, DiscoveryListener.NONE);
        List<ManagedThread> threads = new ThreadContexts(chase, null).threads();
        return new ThreadStoreList(threads, chase.problems());
    }

    private DiscoveredHeap discover(Chase chase) {
        long vars = chase.globalPointer("g_gcDacGlobals");
        long freeMt = chase.globalPointer("g_pFreeObjectMethodTable");
        if (chase.listening()) {
            chase.emit(new GcDacVarsFound(vars));
        }
        long stride;
        try {
            stride = chase.read(chase.field("GcDacVars", "generation_size"), vars);
        } catch (MissingMemoryException e) { // a dump whose GcDacVars bytes were not captured (found by fuzzing)
            chase.problem(ProblemKind.UNREADABLE_STRUCTURE, vars, "", "GcDacVars cannot be read (" + e.getMessage() + "); no heap is walked",
                    chase.failedRead());
            return DiscoveredHeap.of(layout.gc(), List.of(), List.of(), freeMt, false, chase.problems());
        }
        boolean gcInProgress = gcInProgress(chase, vars);
        long generationArray = chase.read(chase.field("GcDacVars", "generation_field_offsets"), vars);
        HeapRootsReader roots = new HeapRootsReader(chase);
        boolean located = roots.locate(vars);
        FieldSpec[] generationFields = publishedGenerationFields(chase, generationArray);
        GcMode mode = GcMode.of(target.memory(), layout, vars);
        FieldSpec allocationStart = mode == GcMode.SEGMENTS ? allocationStart(chase, generationArray) : null;
        int count = located ? roots.count() : 0;
        RegionChains chains = new RegionChains(chase, stride, generationFields[1], generationFields[0].offset(), allocationStart);
        AllocContextReader contexts = new AllocContextReader(chase);
        List<SubHeap> heaps = new ArrayList<>();
        List<AllocContextInfo> found = new ArrayList<>();
        Map<Long, Integer> gcHeaps = new HashMap<>();
        for (int i = 0; i < count; i++) {
            HeapRoots r = roots.read(i);
            if (r == null) {
                continue;
            }
            Integer first = r.gcHeap() == 0 ? null : gcHeaps.putIfAbsent(r.gcHeap(), i);
            if (first != null) {
                chase.problem(ProblemKind.DUPLICATE_HEAP, roots.entryAddress(i), "heap " + i, String.format(
                        "g_heaps[%d] is gc_heap 0x%x, as g_heaps[%d] is: it is walked once; heap %d's regions are looked for in the region map",
                        i, r.gcHeap(), first, i), new FieldRead("gc_heap*[] g_heaps", "[" + i + "]", roots.entryAddress(i), 0,
                        "GcDacVars.g_heaps"));
                continue;
            }
            heaps.add(chains.heap(r, contexts, found));
        }
        heaps = chains.dropOverlapping(heaps);
        if (chase.chainBroken()) {
            heaps = new RegionMapRecovery(chase, roots, count).recover(heaps, chains.listed());
        }
        found.addAll(new ThreadContexts(chase, contexts).read());
        found.add(globalContext(chase, contexts));
        return DiscoveredHeap.of(layout.gc(), heaps, found.stream().filter(contexts::plausible).toList(), freeMt, gcInProgress, chase.problems());
    }

    /** {@code *gc_structures_invalid_cnt != 0}: the dump was taken during a GC (reported). */
    private static boolean gcInProgress(Chase chase, long vars) {
        long counter = chase.read(chase.field("GcDacVars", "gc_structures_invalid_cnt"), vars);
        FieldSpec value = FieldSpec.variable("gc_structures_invalid_cnt", "int32", 4, true, "GcDacVars.gc_structures_invalid_cnt");
        try {
            if (chase.read(value, counter) == 0) {
                return false;
            }
        } catch (MissingMemoryException e) {
            chase.problem(ProblemKind.UNREADABLE_STRUCTURE, counter, "", "gc_structures_invalid_cnt cannot be read: " + e.getMessage(), chase.failedRead());
            return false;
        }
        chase.problem(ProblemKind.GC_IN_PROGRESS, counter, "", "gc_structures_invalid_cnt is not 0: the dump was taken during a GC; objects may be moving",
                value.at(counter));
        return true;
    }

    /**
     * generation.allocation_context and generation.start_segment at the offsets the runtime publishes
     * ({@code generation_field_offsets}); the profile's when it publishes none or they cannot be read.
     */
    private static FieldSpec[] publishedGenerationFields(Chase chase, long array) {
        FieldSpec[] profile = {chase.field("generation", "allocation_context"), chase.field("generation", "start_segment")};
        if (array == 0) {
            return profile;
        }
        if (chase.listening()) {
            chase.emit(new OffsetsPublished("generation_field_offsets", array, 3));
        }
        FieldSpec[] elements = new FieldSpec[2];
        long[] published = new long[2];
        try {
            for (int i = 0; i < 2; i++) {
                elements[i] = new FieldSpec("generation_field_offsets", "[" + i + "] " + profile[i].field(), 4L * i, "int32", 4, true, Chase.PUBLISHED);
                published[i] = chase.read(elements[i], array);
            }
        } catch (MissingMemoryException e) { // found by fuzzing: the array's page missing from the core
            chase.problem(ProblemKind.UNREADABLE_STRUCTURE, array, "", "generation_field_offsets cannot be read (" + e.getMessage()
                    + "); using the profile's offsets", chase.failedRead());
            return profile;
        }
        FieldSpec[] fields = new FieldSpec[2];
        for (int i = 0; i < 2; i++) {
            if (published[i] != profile[i].offset() && chase.target.gcModule().isEmpty()) { // a standalone GC's are its own
                chase.problem(ProblemKind.OFFSET_MISMATCH, array + 4L * i, "", String.format(
                        "generation_field_offsets[%d] = %d, the profile says %d; using the published offset", i, published[i], profile[i].offset()),
                        elements[i].at(array));
            }
            fields[i] = new FieldSpec("generation", profile[i].field(), published[i], profile[i].type(), profile[i].size(), false, Chase.PUBLISHED);
        }
        return fields;
    }

    /**
     * generation.allocation_start of a segments GC, at the offset it publishes ({@code generation_field_offsets[2]});
     * null (the ephemeral segment is then walked as one gen2 range) when it cannot be read.
     */
    private static FieldSpec allocationStart(Chase chase, long array) {
        FieldSpec element = new FieldSpec("generation_field_offsets", "[2] allocation_start", 8, "int32", 4, true, Chase.PUBLISHED);
        try {
            long offset = chase.read(element, array);
            return new FieldSpec("generation", "allocation_start", offset, "pointer", 8, false, Chase.PUBLISHED);
        } catch (MissingMemoryException e) {
            chase.problem(ProblemKind.UNREADABLE_STRUCTURE, array + 8, "", "generation_field_offsets[2] (allocation_start) cannot be read ("
                    + e.getMessage() + "); each ephemeral segment is walked as gen2", chase.failedRead());
            return null;
        }
    }

    /** g_global_alloc_context: a gc_alloc_context in 8 and 9, an ee_alloc_context in 10. */
    private AllocContextInfo globalContext(Chase chase, AllocContextReader contexts) {
        if (chase.listening()) {
            chase.emit(new ContextEntered("global"));
        }
        long variable = chase.global("g_global_alloc_context");
        String type = layout.findType("ee_alloc_context").isPresent() ? "ee_alloc_context" : "gc_alloc_context";
        return contexts.read("global", variable + gcContextOffsetIn(layout, type));
    }

    /** Where the gc_alloc_context sits inside a context of the given type (.NET 10 wraps it in an ee_alloc_context). */
    static long gcContextOffsetIn(RuntimeLayout layout, String contextType) {
        return contextType.equals("ee_alloc_context") ? layout.offset("ee_alloc_context", "m_GCAllocContext") : 0;
    }
}
