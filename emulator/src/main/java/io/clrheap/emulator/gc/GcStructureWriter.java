package io.clrheap.emulator.gc;

import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.view.FinalizeQueue;
import io.clrheap.layout.view.GcHeap;
import io.clrheap.layout.view.Generation;
import io.clrheap.layout.view.HeapSegment;
import io.clrheap.layout.view.ServerHeap;
import java.util.List;
import io.clrheap.emulator.process.GcBookkeeping;
import io.clrheap.emulator.process.Process;
import io.clrheap.emulator.truth.GroundTruth;

/**
 * The structures the GC keeps about its heaps, written once the heaps are laid out, as the real build has them: a
 * {@code heap_segment} descriptor per region, the generation tables, the {@code gc_heap} (server GC) and
 * {@code GCHeap} objects, a finalization queue per heap, and the server heap array.
 */
public final class GcStructureWriter {

    private final Process process;
    /** The IGCHeap vtable every GCHeap object points to. */
    private final long gcHeapVtable;
    /** The GC's static generation_table in the runtime module: workstation GC's one generation table. */
    private final long staticGenerationTable;
    private final RuntimeLayout layout;
    private final List<Heap> heaps;
    /** The standalone segments GC's layout, or null for the runtime's own regions GC. */
    private final io.clrheap.layout.SegmentsGcLayout segments;
    /** Where a segments GC put what was placed (null under regions). */
    private final SegmentedHeaps segmented;

    /**
     * @param gcHeapVtable          the IGCHeap vtable in the runtime module
     * @param staticGenerationTable the module's static {@code generation_table} (workstation GC's)
     */
    public GcStructureWriter(Process process, long gcHeapVtable, long staticGenerationTable, HeapBuilder heaps) {
        this.process = process;
        this.gcHeapVtable = gcHeapVtable;
        this.staticGenerationTable = staticGenerationTable;
        this.layout = process.layout();
        this.heaps = heaps.heaps();
        this.segments = process.segments();
        this.segmented = heaps.segmented();
    }

    /** gc_heap's offset of {@code field}: as the standalone GC publishes it, or the profile's. */
    private long gcHeapOffset(String field) {
        if (segments == null) {
            return layout.offset("gc_heap", field);
        }
        int index = layout.dacFieldOrder().get("gc_heap").indexOf(field);
        return segments.gcHeapFieldOffsets().get(index);
    }

    /** Writes descriptors, generation tables and the per-heap objects; returns the server heap array (0 under workstation GC). */
    public long write() {
        var memory = process.memory();
        writeCardTableInfo();
        boolean server = process.server();
        long stride = segments != null ? segments.generationSize() : layout.type("generation").size().orElseThrow();
        long heapArray = server ? process.nativeHeap().allocate(8L * heaps.size(), 16) : 0;
        for (Heap heap : heaps) {
            if (server) {
                // a standalone GC's gc_heap is its own: as long as the furthest field it publishes
                heap.gcHeap = segments != null
                        ? process.nativeHeap().allocate(segments.gcHeapFieldOffsets().stream().mapToLong(o -> o + 8L).max().orElseThrow(), 16)
                        : process.allocateNative("gc_heap", 0x40);
                heap.gcHeapObject = process.allocateNative("GCHeap", 16);
                heap.generationTable = heap.gcHeap + gcHeapOffset("generation_table");
                memory.writePointer(heapArray + 8L * heap.index, heap.gcHeap);
            } else {
                heap.gcHeapObject = process.allocateNative("GCHeap", 8);
                heap.generationTable = staticGenerationTable;
            }
            GcHeap.Writable gcHeapObject = process.views().view(GcHeap.Writable.class, memory, heap.gcHeapObject);
            gcHeapObject.vtable(gcHeapVtable);
            if (server) {
                gcHeapObject.genGcHeap(heap.gcHeap);
            }
            RegionState gen0 = heap.gen0();
            heap.allocAllocated = gen0.cursor;
            heap.finalizeQueue = finalizeQueue(heap);
            if (segments != null) {
                writeSegments(heap, stride);
                continue;
            }
            for (List<RegionState> list : heap.generations) {
                for (RegionState r : list) {
                    // a region's heap_segment is its entry in the region map (get_region_info); a frozen segment is no region
                    r.descriptor = r.frozen ? process.allocateNative("heap_segment", 0x40) : process.bookkeeping().entry(r.start);
                    if (!r.frozen) {
                        writeContainedUnits(heap, r);
                    }
                }
            }
            heap.ephemeralSegment = gen0.descriptor;
            for (int g = 0; g < 5; g++) {
                List<RegionState> list = heap.generations.get(g);
                for (int i = 0; i < list.size(); i++) {
                    writeDescriptor(heap, list.get(i), i + 1 < list.size() ? list.get(i + 1).descriptor : 0);
                }
                Generation.Writable generation = process.views().view(Generation.Writable.class, memory, heap.generationTable + g * stride);
                generation.startSegment(list.get(0).descriptor);
                generation.allocationSegment(list.get(list.size() - 1).descriptor);
                generation.tailRegion(list.get(list.size() - 1).descriptor);
                generation.genNum(g);
                RegionState firstFrozen = list.stream().filter(r -> r.frozen).reduce((a, b) -> b).orElse(null);
                if (firstFrozen != null) {
                    // tail_ro_region: the first read-only segment ever inserted, the last of them in the list (insert_ro_segment)
                    generation.tailRoRegion(firstFrozen.descriptor);
                }
            }
            if (server) {
                ServerHeap.Writable gcHeap = process.views().view(ServerHeap.Writable.class, memory, heap.gcHeap);
                gcHeap.allocAllocated(heap.allocAllocated);
                gcHeap.ephemeralHeapSegment(heap.ephemeralSegment);
                gcHeap.finalizeQueue(heap.finalizeQueue);
                memory.writePointer(heap.gcHeap + layout.offset("gc_heap", "vm_heap"), heap.gcHeapObject);
                memory.writeInt(heap.gcHeap + layout.offset("gc_heap", "heap_number"), heap.index);
                layout.type("gc_heap").findField("heap_analyze_success").ifPresent(f ->
                        memory.writeInt(heap.gcHeap + f.offset(), (int) layout.constant("gc.heap_analyze_success")));
            }
        }
        return heapArray;
    }

    /**
     * A segments GC's heap (docs/reference/discovery.md section 14): a heap_segment at each segment's base, gen2's list
     * (the frozen segments first on heap 0, the small-object segments, the ephemeral one last), LOH's and POH's lists;
     * each generation's start_segment, allocation_start and allocation_segment; the gc_heap fields it publishes.
     */
    private void writeSegments(Heap heap, long stride) {
        var memory = process.memory();
        long[] starts = SegmentedHeaps.allocationStarts(heap);
        process.truth().addGenerationStarts(heap.index, starts);
        Segment ephemeral = heap.ephemeral();
        for (List<RegionState> list : heap.generations) {
            for (RegionState r : list) {
                r.descriptor = r.frozen ? process.allocateNative("heap_segment", 0x40) : r.segment.base;
            }
        }
        heap.ephemeralSegment = ephemeral.base;
        long[] firstSegment = new long[5];
        long[] lastSegment = new long[5];
        for (int g : new int[] {2, HeapBuilder.LOH, HeapBuilder.LOH + 1}) {
            // a generation's segments in list order, each once (gen2's list holds several bands of the ephemeral segment)
            List<RegionState> chain = new java.util.ArrayList<>();
            java.util.Set<Long> seen = new java.util.HashSet<>();
            for (RegionState r : heap.generations.get(g)) {
                if (seen.add(r.descriptor)) {
                    chain.add(r.frozen ? r : r.segment.tail());
                }
            }
            for (int i = 0; i < chain.size(); i++) {
                writeSegmentDescriptor(heap, chain.get(i), i + 1 < chain.size() ? chain.get(i + 1).descriptor : 0, starts);
            }
            firstSegment[g] = chain.get(0).descriptor;
            lastSegment[g] = chain.get(chain.size() - 1).descriptor;
        }
        for (int g = 0; g < 5; g++) {
            long generation = heap.generationTable + g * stride;
            memory.writePointer(generation + layout.offset("generation", "start_segment"), g < 2 ? ephemeral.base : firstSegment[g]);
            memory.writePointer(generation + segments.allocationStart(), starts[g]);
            memory.writePointer(generation + segments.allocationSegment(), g <= 2 ? ephemeral.base : lastSegment[g]);
        }
        if (process.server()) {
            memory.writePointer(heap.gcHeap + gcHeapOffset("alloc_allocated"), heap.allocAllocated);
            memory.writePointer(heap.gcHeap + gcHeapOffset("ephemeral_heap_segment"), heap.ephemeralSegment);
            memory.writePointer(heap.gcHeap + gcHeapOffset("finalize_queue"), heap.finalizeQueue);
            memory.writeInt(heap.gcHeap + gcHeapOffset("heap_analyze_success"), segments.heapAnalyzeSuccess());
        }
    }

    /**
     * One segment's heap_segment, as the real libclrgc.so dumps hold them: allocated the end of its objects (the
     * ephemeral segment's lags at gen0's start object's end: alloc_allocated is its end), used 8 bytes below the end,
     * committed a commit step above it, the owning gc_heap under server GC; and its ground truth, the ephemeral segment
     * split at gen1's and gen0's starts as a walker splits it (gen1's and gen0's parts start at their allocation_start,
     * so that no two parts of regions.tsv start at one address).
     */
    private void writeSegmentDescriptor(Heap heap, RegionState tail, long next, long[] starts) {
        if (tail.frozen) {
            writeDescriptor(heap, tail, next);
            return;
        }
        Segment segment = tail.segment;
        boolean ephemeral = segment == heap.ephemeral();
        long mem = segment.base + segments.firstObjectOffset();
        long end = ephemeral ? heap.allocAllocated : segment.allocated();
        // what a compaction left past the end (Feature.STALE_SEGMENT_TAIL), inside the committed memory and heap_segment.used
        long stale = segmented.writeStaleTail(segment, end);
        long commitStep = layout.constant("frozen_segment.commit_step");
        long committed = Math.min(segment.end, (stale - segment.base + commitStep - 1) / commitStep * commitStep + segment.base);
        HeapSegment.Writable s = process.views().view(HeapSegment.Writable.class, process.memory(), segment.base);
        s.allocated(ephemeral ? starts[0] + segments.startObjectSize() : end);
        s.committed(committed);
        s.reserved(segment.end);
        s.used(stale == end ? end - 8 : stale);
        s.mem(mem);
        long flags = segment.kind == HeapBuilder.LOH ? layout.constant("heap_segment.flags.loh")
                : segment.kind == HeapBuilder.LOH + 1 ? layout.constant("heap_segment.flags.poh") : 0;
        s.flags(flags);
        s.next(next);
        if (process.server()) {
            process.memory().writePointer(segment.base + segments.segmentHeapOffset(), heap.gcHeap);
        }
        long gcHeap = process.server() ? heap.gcHeap : 0;
        if (ephemeral) {
            if (starts[1] != mem) {
                process.truth().addRegion(new GroundTruth.RegionInfo(heap.index, 2, false, segment.base, segment.base, mem, starts[1], segment.end, flags, committed, gcHeap));
            }
            process.truth().addRegion(new GroundTruth.RegionInfo(heap.index, 1, false, segment.base, starts[1], starts[1], starts[0], segment.end, flags, committed, gcHeap));
            process.truth().addRegion(new GroundTruth.RegionInfo(heap.index, 0, false, segment.base, starts[0], starts[0], end, segment.end, flags, committed, gcHeap));
        } else {
            process.truth().addRegion(new GroundTruth.RegionInfo(heap.index, segment.kind == 0 ? 2 : segment.kind, false, segment.base, segment.base, mem,
                    end, segment.end, flags, committed, gcHeap));
        }
    }

    private void writeDescriptor(Heap heap, RegionState r, long next) {
        HeapSegment.Writable s = process.views().view(HeapSegment.Writable.class, process.memory(), r.descriptor);
        boolean ephemeral = r == heap.gen0();
        long commitStep = layout.constant("frozen_segment.commit_step");
        long end = ephemeral ? heap.allocAllocated : r.cursor;
        long committed = Math.min(r.reserved, ((end - r.start) + commitStep - 1) / commitStep * commitStep + r.start);
        // the ephemeral region's heap_segment.allocated lags: it stays at mem while gen0 grows (docs/reference/discovery.md section 6)
        s.allocated(ephemeral ? r.mem : r.cursor);
        long committedEnd = Math.max(committed, r.mem);
        s.committed(committedEnd);
        s.reserved(r.reserved);
        s.used(end);
        s.mem(r.mem);
        long flags = r.frozen ? layout.constant("heap_segment.flags.readonly")
                : r.generation == 3 ? layout.constant("heap_segment.flags.loh")
                : r.generation == 4 ? layout.constant("heap_segment.flags.poh") : 0;
        s.flags(flags);
        s.next(next);
        // LOH, POH and frozen regions carry gen_num 2 (max_generation), as in the real dumps
        s.genNum(Math.min(r.generation, 2));
        s.planGenNum(Math.min(r.generation, 2));
        if (s.hasHeap()) {
            s.heap(heap.gcHeap);
        }
        process.truth().addRegion(new GroundTruth.RegionInfo(heap.index, r.frozen ? -1 : r.generation, r.frozen, r.descriptor,
                r.start, r.mem, end, r.reserved, flags, committedEnd, process.server() ? heap.gcHeap : 0));
    }

    /**
     * The region map entries of a large region's basic regions after its first (gc.cpp init_heap_segment under
     * regions, as the real dumps hold them): {@code allocated} = -i for the i-th, the owning heap (server GC), gen_num
     * and plan_gen_num of the region. Nothing reads them as regions.
     */
    private void writeContainedUnits(Heap heap, RegionState r) {
        GcBookkeeping map = process.bookkeeping();
        long units = (r.reserved - r.start) >>> map.shift();
        int gen = Math.min(r.generation, 2);
        for (long i = 1; i < units; i++) {
            HeapSegment.Writable s = process.views().view(HeapSegment.Writable.class, process.memory(), map.entry(r.start + (i << map.shift())));
            s.allocated(-i);
            if (s.hasHeap()) {
                s.heap(heap.gcHeap);
            }
            s.genNum(gen);
            s.planGenNum(gen);
        }
    }

    /**
     * The {@code card_table_info} header at {@code bookkeeping_start}, as the real dumps hold it: reference count
     * (2 under server GC, 1 under workstation), the area's size, no next card table, the GC range, and where the
     * brick table, the card bundle table and the mark array lie.
     */
    private void writeCardTableInfo() {
        GcBookkeeping b = process.bookkeeping();
        var memory = process.memory();
        memory.writeInt(b.start(), process.server() ? 2 : 1);
        memory.writePointer(b.start() + 0x08, b.size());
        memory.writePointer(b.start() + 0x18, b.lowest());
        memory.writePointer(b.start() + 0x20, b.highest());
        memory.writePointer(b.start() + 0x28, b.brickTable());
        memory.writePointer(b.start() + 0x30, b.cardBundleTable());
        memory.writePointer(b.start() + 0x38, b.markArray());
    }

    /**
     * A heap's finalization queue: m_Array with room for 100 entries (the real dumps) or as many as it holds, its
     * segments one after the other (POH, LOH, gen2, gen1, gen0, critical, f-reachable; {@link FinalizationQueue}),
     * fill pointer i at the end of segment i; the rest up to m_EndArray is the free list.
     */
    private long finalizeQueue(Heap heap) {
        FinalizationQueue content = heap.finalization;
        int capacity = Math.max(100, content.size());
        long queue = process.allocateNative("CFinalize", 0x58);
        long array = process.nativeHeap().allocate(8L * capacity, 16);
        FinalizeQueue.Writable f = process.views().view(FinalizeQueue.Writable.class, process.memory(), queue);
        long fill = array;
        int fillPointers = (int) layout.field("CFinalize", "m_FillPointers").type().count();
        for (int i = 0; i < fillPointers; i++) {
            for (long object : i < content.segments.size() ? content.segments.get(i) : List.<Long>of()) {
                process.memory().writePointer(fill, object);
                process.truth().addFinalizer(new GroundTruth.FinalizerInfo(heap.index, fill, object, i == FinalizationQueue.FINALIZER_LIST));
                fill += 8;
            }
            f.fillPointer(i, fill);
        }
        f.array(array);
        f.endArray(array + 8L * capacity);
        return queue;
    }
}
