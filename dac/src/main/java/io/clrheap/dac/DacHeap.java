package io.clrheap.dac;

import io.clrheap.dac.dbi.HeapObject;
import io.clrheap.dac.sos.GcHeapData;
import io.clrheap.dac.sos.GcHeapDetails;
import io.clrheap.dac.sos.GenerationData;
import io.clrheap.dac.sos.HeapSegmentData;
import io.clrheap.dac.sos.MethodTableData;
import io.clrheap.dac.sos.ThreadData;
import io.clrheap.dac.sos.UsefulGlobals;
import io.clrheap.layout.GcFlavor;
import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.heap.SubHeap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import io.clrheap.dac.walk.DacWalkListener;

/**
 * Everything a DAC walk answered, collected in the parent process: the GC's shape, the heaps with their regions, the
 * threads and their allocation contexts, the MethodTables met, and every call that failed. Objects are not kept: they
 * go to a {@link DacObjectSink} as they arrive (a heap may hold a hundred million).
 */
public final class DacHeap implements DacWalkListener {

    /** A DAC call that failed: its name, argument and HRESULT. */
    public record FailedCall(String call, long argument, int hresult) {
        @Override
        public String toString() {
            return String.format("%s(0x%x): %s", call, argument, io.clrheap.dac.com.Hresult.describe(hresult));
        }
    }

    /** One heap as the DAC sees it. */
    public record Heap(int index, GcHeapDetails details, List<GenerationData> generations, List<Region> regions) {
    }

    /** A heap-segment flag: heap_segment_flags_readonly (gcpriv.h), set on frozen segments. */
    private static final long SEGMENT_READONLY = 1;
    private static final int MAX_KEPT_FAILURES = 1000;

    private final DacObjectSink objects;
    private GcHeapData gcHeapData;
    private UsefulGlobals globals;
    private final List<ThreadData> threads = new ArrayList<>();
    private long[] globalContext;
    private final Map<Integer, Heap> heaps = new TreeMap<>();
    private final TreeMap<Long, Region> regionsByMem = new TreeMap<>(Long::compareUnsigned);
    private final Map<Long, MethodTableData> methodTables = new LinkedHashMap<>();
    private final Map<Long, String> names = new LinkedHashMap<>();
    private final List<FailedCall> failures = new ArrayList<>();
    private long failureCount;
    private long failedReads;
    private final List<String> firstFailedReads = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private long objectCount;
    private String namesCrash;

    public DacHeap(DacObjectSink objects) {
        this.objects = objects;
    }

    @Override
    public void gcHeapData(GcHeapData data) {
        this.gcHeapData = data;
    }

    @Override
    public void usefulGlobals(UsefulGlobals g) {
        this.globals = g;
    }

    @Override
    public void thread(ThreadData thread) {
        threads.add(thread);
    }

    @Override
    public void globalAllocationContext(long pointer, long limit) {
        globalContext = new long[] {pointer, limit};
    }

    @Override
    public void heap(int index, GcHeapDetails details, List<GenerationData> generations) {
        heaps.put(index, new Heap(index, details, generations, new ArrayList<>()));
    }

    /** The heaps whose ephemeral segment a segments GC shares among gen0, gen1 and gen2 (split at their starts). */
    private final java.util.Set<Integer> segmentsHeaps = new java.util.HashSet<>();

    @Override
    public void segment(int heap, int generation, HeapSegmentData s) {
        Heap h = heaps.get(heap);
        if (h == null) {
            return;
        }
        boolean ephemeral = s.segmentAddress() == h.details().ephemeralHeapSegment();
        long end = s.highAllocMark() != 0 ? s.highAllocMark() : ephemeral ? h.details().allocAllocated() : s.allocated();
        SegmentKind kind = (s.flags() & SEGMENT_READONLY) != 0 ? SegmentKind.FROZEN
                : SegmentKind.ofGeneration(Math.min(generation, 4));
        Region r = new Region(heap, kind, s.segmentAddress(), s.mem(), end, s.allocated(), s.committed(), s.reserved(), s.flags(), ephemeral);
        List<GenerationData> soh = h.details().generations();
        if (ephemeral && kind == SegmentKind.GEN2 && soh.size() > 1 && soh.get(0).allocationStart() != 0) {
            // a segments GC (the DAC reports allocation_start): gen2, gen1 and gen0 share the ephemeral segment, split at
            // each generation's allocation_start, as SOS's eeheap -gc and the walker have them
            java.util.Optional<List<Region>> pieces = r.splitAtGenerations(soh.get(1).allocationStart(), soh.get(0).allocationStart());
            if (pieces.isPresent()) {
                pieces.get().forEach(p -> add(h, p));
                segmentsHeaps.add(heap);
                return;
            }
        }
        add(h, r);
    }

    /**
     * A segments GC's generation starts of heap {@code index} as the DAC reports them (GetGCHeapDetails' generation
     * table, the LOH's and POH's from the generation table call) and generation 0's allocation context; null under
     * regions (no ephemeral segment was split at them).
     */
    public io.clrheap.walker.sos.SosEeHeap.GenerationStarts generationStarts(int index) {
        Heap h = heaps.get(index);
        if (h == null || !segmentsHeaps.contains(index)) {
            return null;
        }
        long[] starts = new long[5];
        for (int g = 0; g < 5; g++) {
            List<GenerationData> from = g < h.details().generations().size() ? h.details().generations() : h.generations();
            starts[g] = g < from.size() ? from.get(g).allocationStart() : 0;
        }
        GenerationData gen0 = h.details().generations().getFirst();
        return new io.clrheap.walker.sos.SosEeHeap.GenerationStarts(starts, gen0.allocContextPtr(), gen0.allocContextLimit());
    }

    private void add(Heap h, Region r) {
        h.regions().add(r);
        regionsByMem.put(r.mem(), r);
    }

    @Override
    public void methodTable(long methodTable, MethodTableData data) {
        methodTables.put(methodTable, data);
    }

    @Override
    public void typeName(long methodTable, String name) {
        names.put(methodTable, name);
    }

    /** The DAC crashed while naming types, after a complete walk: the walk stands, the names are missing. */
    public void namesCrashed(String what) {
        namesCrash = what;
    }

    /** Why type names are missing: the DAC crashed in GetMethodTableName (a dump without the modules' metadata chain). */
    public java.util.Optional<String> namesCrash() {
        return java.util.Optional.ofNullable(namesCrash);
    }

    @Override
    public void object(long address, long methodTable, long size, int heap, int generation) {
        objectCount++;
        objects.object(address, methodTable, size, regionOf(address));
    }

    @Override
    public void heapObject(HeapObject o) {
        objectCount++;
        objects.object(o.address(), o.methodTable(), o.size(), regionOf(o.address()));
    }

    private Region regionOf(long address) {
        if (regionsByMem.isEmpty()) {
            return null;
        }
        Map.Entry<Long, Region> e = regionsByMem.floorEntry(address);
        return e != null && e.getValue().contains(address) ? e.getValue() : null;
    }

    @Override
    public void callFailed(String call, long argument, int hresult) {
        failureCount++;
        if (failures.size() < MAX_KEPT_FAILURES) {
            failures.add(new FailedCall(call, argument, hresult));
        }
    }

    @Override
    public void failedReads(long count, List<String> first) {
        failedReads = count;
        firstFailedReads.addAll(first);
    }

    @Override
    public void note(String text) {
        notes.add(text);
    }

    public GcHeapData gcHeapData() {
        return gcHeapData;
    }

    public UsefulGlobals usefulGlobals() {
        return globals;
    }

    public List<ThreadData> threads() {
        return Collections.unmodifiableList(threads);
    }

    public List<Heap> heaps() {
        return List.copyOf(heaps.values());
    }

    public Map<Long, MethodTableData> methodTables() {
        return Collections.unmodifiableMap(methodTables);
    }

    /** The names GetMethodTableName gave (none when the dump lacks the modules' metadata). */
    public Map<Long, String> typeNames() {
        return Collections.unmodifiableMap(names);
    }

    /** Failed DAC calls (the first {@value #MAX_KEPT_FAILURES}); {@link #failureCount()} counts them all. */
    public List<FailedCall> failures() {
        return Collections.unmodifiableList(failures);
    }

    public long failureCount() {
        return failureCount;
    }

    /** How many of the DAC's reads of target memory the dump could not answer. */
    public long failedReads() {
        return failedReads;
    }

    public List<String> firstFailedReads() {
        return Collections.unmodifiableList(firstFailedReads);
    }

    public List<String> notes() {
        return Collections.unmodifiableList(notes);
    }

    public long objectCount() {
        return objectCount;
    }

    /** The free-object MethodTable the DAC reported (GetUsefulGlobals), or 0. */
    public long freeMethodTable() {
        return globals == null ? 0 : globals.freeMethodTable();
    }

    /**
     * The heap in the walker's shapes, so the walker's reports ({@code eeheap}) print the DAC's answers: heaps with their
     * regions, and the allocation contexts the DAC reported (threads', each heap's gen0, the global one).
     */
    public DiscoveredHeap asDiscoveredHeap() {
        List<SubHeap> subHeaps = new ArrayList<>();
        List<AllocContextInfo> contexts = new ArrayList<>();
        for (ThreadData t : threads) {
            contexts.add(new AllocContextInfo(String.format("thread 0x%x (os tid %d)", t.address(), t.osThreadId()), t.address(),
                    t.allocContextPtr(), t.allocContextLimit()));
        }
        for (Heap h : heaps.values()) {
            // the walker's order: gen2 (frozen segments first, as the chain holds them), gen1, gen0, LOH, POH
            List<Region> ordered = new ArrayList<>(h.regions());
            ordered.sort(java.util.Comparator.comparingInt(r -> switch (r.kind().generationTableIndex()) {
                case 2 -> 0;
                case 1 -> 1;
                case 0 -> 2;
                default -> r.kind().generationTableIndex();
            }));
            subHeaps.add(new SubHeap(h.index(), h.details().heapAddress(), 0, h.details().allocAllocated(), h.details().ephemeralHeapSegment(),
                    0, ordered));
            GenerationData gen0 = h.details().generations().getFirst();
            contexts.add(new AllocContextInfo("heap " + h.index() + " gen0", 0, gen0.allocContextPtr(), gen0.allocContextLimit()));
        }
        if (globalContext != null) {
            contexts.add(new AllocContextInfo("global", 0, globalContext[0], globalContext[1]));
        }
        GcFlavor gc = gcHeapData != null && gcHeapData.serverMode() ? GcFlavor.SERVER : GcFlavor.WORKSTATION;
        return new DiscoveredHeap(gc, subHeaps, contexts, freeMethodTable(), gcHeapData != null && !gcHeapData.structuresValid(), List.of());
    }
}
