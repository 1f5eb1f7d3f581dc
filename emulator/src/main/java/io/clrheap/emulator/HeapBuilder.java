package io.clrheap.emulator;

import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.view.FinalizeQueue;
import io.clrheap.layout.view.GcHeap;
import io.clrheap.layout.view.Generation;
import io.clrheap.layout.view.HeapSegment;
import io.clrheap.layout.view.ServerHeap;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The GC heaps: regions carved from the reserve range at basic-region alignment ({@code mem} = start + 0x28), objects
 * laid out in them (survivors in gen2/gen1 with the dead ones as free objects, each LOH object after its 32-byte
 * padding, POH objects, frozen string literals in a read-only segment at the head of heap 0's gen2 list), gen0
 * allocated through allocation contexts; then the region descriptors, generation tables, {@code gc_heap} and
 * {@code GCHeap} objects as the real build has them.
 */
final class HeapBuilder {

    /** A region being filled. */
    static final class RegionState {
        final int heap;
        final int generation;   // 0..4; frozen segments are listed with gen2
        final boolean frozen;
        final long start;
        final long mem;
        final long reserved;
        long cursor;
        long descriptor;

        RegionState(int heap, int generation, boolean frozen, long start, long mem, long reserved) {
            this.heap = heap;
            this.generation = generation;
            this.frozen = frozen;
            this.start = start;
            this.mem = mem;
            this.reserved = reserved;
            this.cursor = mem;
        }
    }

    /** One heap: its regions per generation, and what discovery reads of it. */
    static final class Heap {
        final int index;
        final List<List<RegionState>> generations = new ArrayList<>();
        long gcHeap;
        long gcHeapObject;
        long generationTable;
        long allocAllocated;
        long ephemeralSegment;
        long finalizeQueue;

        Heap(int index) {
            this.index = index;
            for (int g = 0; g < 5; g++) {
                generations.add(new ArrayList<>());
            }
        }

        RegionState gen0() {
            return generations.get(0).get(0);
        }

        long generationTable() {
            return generationTable;
        }

        long allocAllocated() {
            return allocAllocated;
        }

        long ephemeralSegment() {
            return ephemeralSegment;
        }

        long finalizeQueue() {
            return finalizeQueue;
        }
    }

    private final Process process;
    private final TypeSystem types;
    private final RuntimeGlobals globals;
    private final Random random;
    private final RuntimeLayout layout;
    private final List<Heap> heaps = new ArrayList<>();
    private long nextRegion = ProcessLayout.GC_RESERVE;
    private final long basicRegion;
    private final long largeRegion;

    HeapBuilder(Process process, TypeSystem types, RuntimeGlobals globals, Random random) {
        this.process = process;
        this.types = types;
        this.globals = globals;
        this.random = random;
        this.layout = process.layout();
        this.basicRegion = layout.constant("region.basic_size");
        this.largeRegion = layout.constant("region.large_size");
        for (int h = 0; h < process.scenario().heaps(); h++) {
            heaps.add(new Heap(h));
        }
    }

    List<Heap> heaps() {
        return heaps;
    }

    private RegionState newRegion(Heap heap, int generation) {
        long size = generation >= 3 ? largeRegion : basicRegion;
        // every region starts at basic-region alignment, large ones too (the real dumps: LOH mem = 0x...1800028)
        long start = (nextRegion + basicRegion - 1) & -basicRegion;
        nextRegion = start + size;
        RegionState r = new RegionState(heap.index, generation, false, start, start + layout.constant("region.first_object_offset"), start + size);
        heap.generations.get(generation).add(r);
        return r;
    }

    /** Gen2, gen1, LOH, POH and frozen objects: what earlier GCs left, laid out as a compacting GC leaves it. */
    void placeOlderGenerations() {
        Scenario s = process.scenario();
        List<Heap> carveOrder = new ArrayList<>(heaps);
        if (s.has(Feature.INTERLEAVED_HEAPS)) {
            java.util.Collections.reverse(carveOrder); // the last heap's regions at the lowest addresses
        }
        for (Heap heap : carveOrder) {
            if (heap.index == 0) {
                placeFrozenSegment(heap, s.frozenStrings());
            }
            RegionState gen2 = newRegion(heap, 2);
            fill(gen2, share(s.gen2Objects(), heap.index), s.garbage(), heap.index == 0 && s.has(Feature.MARK_BITS));
            if (heap.index == 0) {
                placeEdgeCases(gen2, s);
            }
            fill(newRegion(heap, 1), share(s.gen1Objects(), heap.index), s.garbage(), false);
            newRegion(heap, 0);
            RegionState loh = newRegion(heap, 3);
            for (int i = 0; i < share(s.lohObjects(), heap.index); i++) {
                placeFree(loh, layout.constant("loh.pad_size"), GroundTruth.Kind.PADDING);
                TypeCatalog.TypeSpec spec = random.nextBoolean() ? TypeCatalog.BYTE_ARRAY : TypeCatalog.LONG_ARRAY;
                int minimum = (int) (layout.constant("loh.threshold") / spec.componentSize()) + 1;
                place(loh, spec, minimum + random.nextInt(minimum));
            }
            RegionState poh = newRegion(heap, 4);
            for (int i = 0; i < share(s.pohObjects(), heap.index); i++) {
                place(poh, random.nextBoolean() ? TypeCatalog.BYTE_ARRAY : TypeCatalog.LONG_ARRAY, 16 + random.nextInt(2000));
                if (s.has(Feature.POH_MIXED) && i % 4 == 0) {
                    place(poh, TypeCatalog.BYTE_ARRAY, layout.constant("loh.threshold") + random.nextInt(50_000)); // no padding on the POH
                }
            }
        }
    }

    /** This heap's part of {@code total} objects (heap 0 takes the remainder). */
    private int share(int total, int heap) {
        int n = heaps.size();
        return total / n + (heap == 0 ? total % n : 0);
    }

    private void fill(RegionState region, int objects, double garbage, boolean markBits) {
        for (int i = 0; i < objects; i++) {
            TypeCatalog.TypeSpec spec = TypeCatalog.SMALL.get(random.nextInt(TypeCatalog.SMALL.size()));
            int count = spec.componentSize() == 0 ? 0 : random.nextInt(spec.shape() == TypeCatalog.Shape.STRING ? 48 : 64);
            if (random.nextDouble() < garbage) {
                placeFree(region, step(spec, count), GroundTruth.Kind.FREE);
            } else {
                long at = place(region, spec, count);
                if (markBits && i % 10 == 0) {
                    // GC_MARKED in the MethodTable word, as during a GC's mark phase (gc.cpp; walkers mask it)
                    process.memory().writePointer(at, process.memory().readPointer(at) | 1);
                }
            }
        }
    }

    /** The sizes a walker can get wrong (walker-semantics.md section 7, items 1-6), and a large free gap (38). */
    private void placeEdgeCases(RegionState gen2, Scenario s) {
        if (s.has(Feature.MIN_OBJECT)) {
            place(gen2, TypeCatalog.OBJECT, 0);
        }
        if (s.has(Feature.EMPTY_STRING)) {
            place(gen2, TypeCatalog.STRING, 0);
        }
        if (s.has(Feature.ODD_STRING)) {
            place(gen2, TypeCatalog.STRING, 3);
        }
        if (s.has(Feature.BYTE_ARRAY_LENGTHS)) {
            for (int length : new int[] {0, 1, 5, 8}) {
                place(gen2, TypeCatalog.BYTE_ARRAY, length);
            }
        }
        if (s.has(Feature.STRUCT_ARRAY)) {
            place(gen2, TypeCatalog.STRUCT_ARRAY, 3);
        }
        if (s.has(Feature.MD_ARRAY)) {
            place(gen2, TypeCatalog.INT_MD_ARRAY, 6);
        }
        if (s.has(Feature.THOUSANDS)) {
            for (int i = 0; i < 1300; i++) {
                place(gen2, TypeCatalog.LEAF, 0);
            }
        }
        if (s.has(Feature.LARGE_FREE_GAP)) {
            placeFree(gen2, 600 << 10, GroundTruth.Kind.FREE);
            place(gen2, TypeCatalog.NODE, 0);
        }
    }

    /** The frozen heap's first segment: mem = base + 8 (GC._RegisterFrozenSegment's ibFirstObject), read-only. */
    private void placeFrozenSegment(Heap heap, int strings) {
        long base = ProcessLayout.FROZEN_HEAP;
        RegionState frozen = new RegionState(heap.index, 2, true, base, base + layout.constant("frozen_segment.first_object_offset"),
                base + layout.constant("frozen_segment.initial_reserve"));
        heap.generations.get(2).add(frozen);
        for (int i = 0; i < strings; i++) {
            place(frozen, TypeCatalog.STRING, 1 + random.nextInt(40));
        }
    }

    long step(TypeCatalog.TypeSpec spec, long count) {
        return step(spec.baseSize() + count * spec.componentSize());
    }

    long step(long size) {
        long alignment = layout.constant("object.alignment");
        return Math.max((size + alignment - 1) & -alignment, layout.constant("object.min_size"));
    }

    /** Writes an object at the region's cursor and moves past it. */
    long place(RegionState region, TypeCatalog.TypeSpec spec, long count) {
        long at = region.cursor;
        writeObject(at, spec, count, region.generation, region.heap, region.frozen);
        region.cursor = at + step(spec, count);
        return at;
    }

    /** Writes an object at {@code at} (its header slot before it stays zero) and records it. */
    void writeObject(long at, TypeCatalog.TypeSpec spec, long count, int generation, int heap, boolean frozen) {
        var memory = process.memory();
        long mt = types.methodTable(spec);
        memory.writePointer(at, mt);
        if (spec.componentSize() != 0) {
            memory.writeInt(at + layout.offset("Array", "m_NumComponents"), (int) count);
        }
        if (spec.shape() == TypeCatalog.Shape.STRING) {
            long chars = at + layout.offset("String", "m_FirstChar");
            for (int c = 0; c < count; c++) {
                memory.writeShort(chars + 2L * c, (short) ('a' + (c % 26)));
            }
        }
        process.truth().addObject(at, mt, spec.baseSize() + count * spec.componentSize(), frozen ? -1 : generation, heap, GroundTruth.Kind.OBJECT);
    }

    /** A free object of {@code size} bytes at the cursor: the free MethodTable, then a full size_t of size - 24 (gc.cpp make_unused_array). */
    void placeFree(RegionState region, long size, GroundTruth.Kind kind) {
        writeFree(region.cursor, size, region.generation, region.heap, kind);
        region.cursor += size;
    }

    void writeFree(long at, long size, int generation, int heap, GroundTruth.Kind kind) {
        process.memory().writePointer(at, types.freeMethodTable());
        process.memory().writeLong(at + layout.offset("Array", "m_NumComponents"), size - layout.constant("free_object.base_size"));
        process.truth().addObject(at, types.freeMethodTable(), size, generation, heap, kind);
    }

    /** A new allocation context of at least {@code need} bytes in the heap's gen0 region: [ptr, limit), limit + 24 reserved. */
    long[] newContext(Heap heap, long need) {
        RegionState gen0 = heap.gen0();
        long reserve = layout.constant("alloc_context.tail_reserve");
        long bytes = Math.max(ProcessLayout.ALLOCATION_QUANTUM, need + reserve);
        if (Long.compareUnsigned(gen0.cursor + bytes, gen0.reserved) > 0) {
            throw new IllegalStateException(String.format("heap %d's gen0 region [0x%x, 0x%x) is full: this scenario allocates too much gen0",
                    heap.index, gen0.mem, gen0.reserved));
        }
        long ptr = gen0.cursor;
        gen0.cursor += bytes;
        return new long[] {ptr, ptr + bytes - reserve};
    }

    /** Writes descriptors, generation tables and the per-heap objects; returns the server heap array (0 under workstation GC). */
    long writeStructures() {
        var memory = process.memory();
        boolean server = process.server();
        long stride = layout.type("generation").size().orElseThrow();
        long heapArray = server ? process.nativeHeap().allocate(8L * heaps.size(), 16) : 0;
        for (Heap heap : heaps) {
            if (server) {
                heap.gcHeap = process.allocateNative("gc_heap", 0x40);
                heap.gcHeapObject = process.allocateNative("GCHeap", 16);
                heap.generationTable = heap.gcHeap + layout.offset("gc_heap", "generation_table");
                memory.writePointer(heapArray + 8L * heap.index, heap.gcHeap);
            } else {
                heap.gcHeapObject = process.allocateNative("GCHeap", 8);
                heap.generationTable = globals.gcStatic("generation_table");
            }
            GcHeap.Writable gcHeapObject = process.views().view(GcHeap.Writable.class, memory, heap.gcHeapObject);
            gcHeapObject.vtable(globals.vtable());
            if (server) {
                gcHeapObject.genGcHeap(heap.gcHeap);
            }
            RegionState gen0 = heap.gen0();
            heap.allocAllocated = gen0.cursor;
            heap.finalizeQueue = finalizeQueue();
            for (List<RegionState> list : heap.generations) {
                for (RegionState r : list) {
                    r.descriptor = r.frozen ? process.allocateNative("heap_segment", 0x40)
                            : process.bookkeeping().allocate(layout.type("heap_segment").size().orElseThrow(), 8);
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
                if (list.get(0).frozen) {
                    generation.tailRoRegion(list.get(0).descriptor);
                }
            }
            if (server) {
                ServerHeap.Writable gcHeap = process.views().view(ServerHeap.Writable.class, memory, heap.gcHeap);
                gcHeap.allocAllocated(heap.allocAllocated);
                gcHeap.ephemeralHeapSegment(heap.ephemeralSegment);
                gcHeap.finalizeQueue(heap.finalizeQueue);
                memory.writePointer(heap.gcHeap + layout.offset("gc_heap", "vm_heap"), heap.gcHeapObject);
                memory.writeInt(heap.gcHeap + layout.offset("gc_heap", "heap_number"), heap.index);
            }
        }
        return heapArray;
    }

    private void writeDescriptor(Heap heap, RegionState r, long next) {
        HeapSegment.Writable s = process.views().view(HeapSegment.Writable.class, process.memory(), r.descriptor);
        boolean ephemeral = r == heap.gen0();
        long commitStep = layout.constant("frozen_segment.commit_step");
        long end = ephemeral ? heap.allocAllocated : r.cursor;
        long committed = Math.min(r.reserved, ((end - r.start) + commitStep - 1) / commitStep * commitStep + r.start);
        // the ephemeral region's heap_segment.allocated lags: it stays at mem while gen0 grows (discovery.md section 6)
        s.allocated(ephemeral ? r.mem : r.cursor);
        s.committed(Math.max(committed, r.mem));
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
                r.start, r.mem, end, r.reserved, flags));
    }

    /** An empty finalization queue: 7 fill pointers at m_Array, room for 100 entries (the real dumps). */
    private long finalizeQueue() {
        long queue = process.allocateNative("CFinalize", 0x58);
        long array = process.nativeHeap().allocate(100 * 8, 16);
        FinalizeQueue.Writable f = process.views().view(FinalizeQueue.Writable.class, process.memory(), queue);
        for (int i = 0; i < layout.field("CFinalize", "m_FillPointers").type().count(); i++) {
            f.fillPointer(i, array);
        }
        f.array(array);
        f.endArray(array + 100 * 8);
        return queue;
    }
}
