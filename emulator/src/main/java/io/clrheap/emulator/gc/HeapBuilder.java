package io.clrheap.emulator.gc;

import io.clrheap.layout.RuntimeLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import io.clrheap.emulator.types.TypeSystem;
import io.clrheap.emulator.scenario.TypeDef;
import io.clrheap.emulator.process.Process;
import io.clrheap.emulator.truth.GroundTruth;
import io.clrheap.emulator.process.ProcessLayout;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.scenario.Step;
import io.clrheap.emulator.scenario.Feature;

/**
 * The GC heaps: regions carved from the reserve range at basic-region alignment ({@code mem} = start + 0x28), a new
 * one whenever the current region of a generation is full; objects laid out in them (survivors in gen2/gen1 with the
 * dead ones as free objects, each LOH object after its 32-byte padding, POH objects, frozen string literals in a
 * read-only segment at the head of heap 0's gen2 list), gen0 handed out as allocation contexts; collections, which
 * sweep and promote regions, are run by {@link Collector}. The objects themselves are written by {@link ObjectWriter},
 * the structures describing the heaps by {@link GcStructureWriter}.
 *
 * <p>§N: item N of the edge-case list, docs/reference/walker-semantics.md section 7.
 * Long because it places every kind of object the scenarios ask for (generations, LOH, POH, frozen segments, edge
 * cases) and hands the finished heap to the writers of references and field values; each placement rule is a few lines.
 */
public final class HeapBuilder {

    static final int LOH = 3;
    private static final int POH = 4;

    private final Process process;
    private final TypeSystem types;
    private final Random random;
    private final RuntimeLayout layout;
    private final GroundTruth truth;
    private final List<Heap> heaps = new ArrayList<>();
    private long nextRegion = ProcessLayout.GC_RESERVE;
    private final long reserveEnd = ProcessLayout.GC_RESERVE + ProcessLayout.GC_RESERVE_SIZE;
    private final long basicRegion;
    private final long largeRegion;
    private final long firstObjectOffset;
    private final long lohThreshold;
    private final long padSize;
    private final long lengthOffset;
    /** Writes the objects and free objects. */
    private final ObjectWriter objects;
    /** The frozen segment strings go to: the newest, at the head of heap 0's gen2 list. */
    private RegionState frozenSegment;
    private long nextFrozen = ProcessLayout.FROZEN_HEAP;
    /** The mixed population's types, placed. */
    private final TypeSystem.Placed[] mix;
    /** Where a segments GC puts what is placed; null under the runtime's own regions GC. */
    private final SegmentedHeaps segmented;

    public HeapBuilder(Process process, TypeSystem types, Random random) {
        this.process = process;
        this.types = types;
        this.random = random;
        this.layout = process.layout();
        this.truth = process.truth();
        this.basicRegion = layout.constant("region.basic_size");
        this.largeRegion = layout.constant("region.large_size");
        this.firstObjectOffset = layout.constant("region.first_object_offset");
        this.lohThreshold = layout.constant("loh.threshold");
        this.padSize = layout.constant("loh.pad_size");
        this.lengthOffset = layout.offset("Array", "m_NumComponents");
        this.objects = new ObjectWriter(process, types);
        for (int h = 0; h < process.scenario().heaps(); h++) {
            heaps.add(new Heap(h));
        }
        this.mix = TypeDef.SMALL_MIX.stream().map(types::placed).toArray(TypeSystem.Placed[]::new);
        var segmentsGc = process.segments();
        this.segmented = segmentsGc == null ? null
                : new SegmentedHeaps(this, segmentsGc, process.server(), process.scenario().heaps(), gen1Placements(process.scenario()),
                        process.scenario().has(Feature.STALE_SEGMENT_TAIL) ? types.objectMethodTable() : 0);
    }

    /**
     * At most how many bytes the program places directly in gen1 on one heap (a step for every heap places a share on
     * each; objects of 85,000 bytes or more go to the LOH): the room a segments GC's heap keeps before gen0's start.
     */
    private long gen1Placements(Scenario s) {
        long bytes = 0;
        int heapCount = s.heaps();
        for (Step step : s.program()) {
            if (step instanceof Step.Allocate a && a.where() == Step.Where.GEN1) {
                TypeDef type = types.named(a.type());
                long smallest = step(type.size(type.hasComponents() ? a.lengths().min() : 0));
                if (smallest >= lohThreshold) {
                    continue; // every one of them goes to the LOH
                }
                long largest = Math.min(step(type.size(type.hasComponents() ? a.lengths().max() : 0)), lohThreshold);
                long perHeap = a.heap() >= 0 ? a.count() : (a.count() + heapCount - 1) / heapCount;
                bytes += perHeap * largest;
            }
        }
        return bytes;
    }

    /** The allocation program begins: from here on a segments GC counts the bytes placed directly in gen1 against its room. */
    public void startProgram() {
        if (segmented != null) {
            segmented.startProgram();
        }
    }

    GroundTruth truth() {
        return truth;
    }

    io.clrheap.emulator.space.AddressSpace memory() {
        return process.memory();
    }

    /** Where a segments GC puts what is placed, or null under the runtime's own regions GC. */
    SegmentedHeaps segmented() {
        return segmented;
    }

    private void regionsOnly(String what) {
        if (segmented != null) {
            throw new IllegalArgumentException(what + " needs the regions GC: the segments GC (\"gcMode\": \"segments\") has no regions");
        }
    }

    public List<Heap> heaps() {
        return heaps;
    }

    /** A new region of {@code generation} with room for at least {@code need} bytes of objects. */
    RegionState newRegion(Heap heap, int generation, long need) {
        regionsOnly("a new region");
        long size = generation >= LOH ? largeRegion : basicRegion;
        if (need > size - firstObjectOffset) {
            // a bigger object gets a region of as many large regions as it takes (gc.cpp get_new_region for UOH)
            size = (need + firstObjectOffset + largeRegion - 1) / largeRegion * largeRegion;
        }
        // every region starts at basic-region alignment, large ones too (the real dumps: LOH mem = 0x...1800028)
        long start = (nextRegion + basicRegion - 1) & -basicRegion;
        if (Long.compareUnsigned(start + size, reserveEnd) > 0) {
            throw new IllegalStateException(String.format("the GC reserve range [0x%x, 0x%x) is used up: the scenario needs more than %d GiB of regions",
                    ProcessLayout.GC_RESERVE, reserveEnd, ProcessLayout.GC_RESERVE_SIZE >> 30));
        }
        nextRegion = start + size;
        RegionState r = new RegionState(heap.index, generation, false, start, start + firstObjectOffset, start + size);
        heap.generations.get(generation).add(r);
        return r;
    }

    /** The region of {@code generation} that direct placement fills: the last one, or a new one when {@code need} bytes do not fit. */
    private RegionState fillRegion(Heap heap, int generation, long need) {
        if (segmented != null) {
            return segmented.fill(heap, generation, need);
        }
        List<RegionState> list = heap.generations.get(generation);
        RegionState last = list.isEmpty() ? null : list.get(list.size() - 1);
        if (last == null || last.room() < need) {
            return newRegion(heap, generation, need);
        }
        return last;
    }

    /** The run that direct placement appends to at the region's cursor. */
    GroundTruth.Run runAt(RegionState region) {
        GroundTruth.Run run = region.current;
        if (run == null || run.end != region.cursor) {
            run = truth.startRun(region.cursor, region.heap, region.frozen ? -1 : region.generation);
            region.runs.add(run);
            region.current = run;
        }
        region.swept = false;
        return run;
    }

    /** Each heap's first regions: gen2 (after the frozen segment on heap 0), gen1, gen0, LOH, POH. */
    public void createRegions() {
        List<Heap> carveOrder = new ArrayList<>(heaps);
        if (process.scenario().has(Feature.INTERLEAVED_HEAPS)) {
            java.util.Collections.reverse(carveOrder); // the last heap's regions at the lowest addresses
        }
        if (segmented != null) {
            createFrozenSegment(heaps.get(0));
            segmented.create(carveOrder);
            return;
        }
        for (Heap heap : carveOrder) {
            if (heap.index == 0) {
                createFrozenSegment(heap);
            }
            for (int g : new int[] {2, 1, 0, LOH, POH}) {
                newRegion(heap, g, 0);
            }
        }
    }

    /** The scenario's frozen strings, gen2, gen1, LOH and POH populations: what earlier GCs left. */
    public void placeOlderGenerations() {
        Scenario s = process.scenario();
        placeFrozen(TypeDef.STRING, s.frozenStrings(), Step.Lengths.uniform(1, 40), random);
        List<Heap> order = new ArrayList<>(heaps);
        if (s.has(Feature.INTERLEAVED_HEAPS)) {
            java.util.Collections.reverse(order);
        }
        for (Heap heap : order) {
            fill(heap, 2, share(s.gen2Objects(), heap.index), s.garbage(), heap.index == 0 && s.has(Feature.MARK_BITS));
            if (heap.index == 0) {
                placeEdgeCases(heap, s);
            }
            fill(heap, 1, share(s.gen1Objects(), heap.index), s.garbage(), false);
            for (long i = 0; i < share(s.lohObjects(), heap.index); i++) {
                TypeDef spec = random.nextBoolean() ? TypeDef.BYTE_ARRAY : TypeDef.LONG_ARRAY;
                long minimum = lohThreshold / spec.componentSize() + 1;
                place(heap, LOH, spec, minimum + random.nextLong(minimum), false);
            }
            for (long i = 0; i < share(s.pohObjects(), heap.index); i++) {
                place(heap, POH, random.nextBoolean() ? TypeDef.BYTE_ARRAY : TypeDef.LONG_ARRAY, 16 + random.nextInt(2000), false);
                if (s.has(Feature.POH_MIXED) && i % 4 == 0) {
                    place(heap, POH, TypeDef.BYTE_ARRAY, lohThreshold + random.nextInt(50_000), false); // no padding on the POH
                }
            }
        }
    }

    /** This heap's part of {@code total} objects (heap 0 takes the remainder). */
    private long share(long total, int heap) {
        int n = heaps.size();
        return total / n + (heap == 0 ? total % n : 0);
    }

    /** A random object of the mixed population: a type and its component count. */
    public TypeSystem.Placed mixedType(Random r) {
        return mix[r.nextInt(mix.length)];
    }

    public long mixedCount(TypeSystem.Placed spec, Random r) {
        return spec.def().hasComponents() ? r.nextInt(spec.def().shape() == TypeDef.Shape.STRING ? 48 : 64) : 0;
    }

    /**
     * The mixed population of an older generation: the dead ones are free space between survivors, one free object
     * per gap (a sweep merges neighbours), and nothing after the last survivor.
     */
    private void fill(Heap heap, int generation, long objects, double garbage, boolean markBits) {
        long gap = 0;
        for (long i = 0; i < objects; i++) {
            TypeSystem.Placed spec = mixedType(random);
            long count = mixedCount(spec, random);
            long size = step(spec.def().size(count));
            if (random.nextDouble() < garbage) {
                gap += size;
                if (gap < MAX_GAP) {
                    continue;
                }
            }
            if (gap > 0) {
                RegionState region = fillRegion(heap, generation, gap + size);
                writeFree(runAt(region), gap, GroundTruth.Kind.FREE);
                region.cursor = region.current.end;
                if (gap >= MAX_GAP) {
                    gap = 0;
                    continue; // that object was dead too: it ended the gap
                }
                gap = 0;
            }
            long at = place(heap, generation, spec, count, false);
            if (markBits && i % 10 == 0) {
                // GC_MARKED in the MethodTable word, as during a GC's mark phase (gc.cpp; walkers mask it)
                process.memory().writePointer(at, process.memory().readPointer(at) | 1);
            }
        }
    }

    /** A run of dead objects this long is written as a free object at once (it could not share a region with a survivor). */
    private static final long MAX_GAP = 1L << 20;

    /** The sizes a walker can get wrong (docs/reference/walker-semantics.md section 7, items 1-6), and a large free gap (38). */
    private void placeEdgeCases(Heap heap, Scenario s) {
        if (s.has(Feature.MIN_OBJECT)) {
            place(heap, 2, TypeDef.OBJECT, 0, false);
        }
        if (s.has(Feature.EMPTY_STRING)) {
            place(heap, 2, TypeDef.STRING, 0, false);
        }
        if (s.has(Feature.ODD_STRING)) {
            place(heap, 2, TypeDef.STRING, 3, false);
        }
        if (s.has(Feature.BYTE_ARRAY_LENGTHS)) {
            for (int length : new int[] {0, 1, 5, 8}) {
                place(heap, 2, TypeDef.BYTE_ARRAY, length, false);
            }
        }
        if (s.has(Feature.STRUCT_ARRAY)) {
            place(heap, 2, TypeDef.STRUCT_ARRAY, 3, false);
        }
        if (s.has(Feature.MD_ARRAY)) {
            place(heap, 2, TypeDef.INT_MD_ARRAY, 6, false);
        }
        if (s.has(Feature.THOUSANDS)) {
            for (int i = 0; i < 1300; i++) {
                place(heap, 2, TypeDef.LEAF, 0, false);
            }
        }
        if (s.has(Feature.LARGE_FREE_GAP)) {
            long gap = 600 << 10;
            RegionState region = fillRegion(heap, 2, gap + 48);
            writeFree(runAt(region), gap, GroundTruth.Kind.FREE);
            region.cursor = region.current.end;
            place(heap, 2, TypeDef.NODE, 0, false);
        }
        if (s.has(Feature.LENGTH_PADDING_GARBAGE)) {
            // §42: the 4 bytes after a 32-bit array length hold garbage; only the low uint32 is the length
            for (int length : new int[] {3, 17}) {
                long at = place(heap, 2, TypeDef.INT_ARRAY, length, false);
                process.memory().writeInt(at + lengthOffset + 4, 0xcdcdcdcd);
            }
        }
    }

    /** The frozen heap's first segment: mem = base + 8 (GC._RegisterFrozenSegment's ibFirstObject), read-only, 4 MiB reserved. */
    private void createFrozenSegment(Heap heap) {
        newFrozenSegment(heap, layout.constant("frozen_segment.initial_reserve"));
    }

    /**
     * A new frozen segment of {@code size} reserved bytes, pushed at the head of heap 0's gen2 list (gc.cpp
     * insert_ro_segment), a reservation of its own after the previous one.
     */
    private void newFrozenSegment(Heap heap, long size) {
        long base = nextFrozen;
        if (base + size > ProcessLayout.FROZEN_HEAP + ProcessLayout.FROZEN_HEAP_SIZE) {
            throw new IllegalStateException(String.format("the frozen heap's %d GiB range is used up: %d segments hold the scenario's frozen strings so far",
                    ProcessLayout.FROZEN_HEAP_SIZE >> 30, frozenCount));
        }
        process.memory().reserve("frozen segment " + (frozenCount++), base, size);
        nextFrozen = base + size + ProcessLayout.FROZEN_SEGMENT_GAP;
        frozenSegment = new RegionState(heap.index, 2, true, base, base + layout.constant("frozen_segment.first_object_offset"), base + size);
        heap.generations.get(2).add(0, frozenSegment);
    }

    private int frozenCount;

    /**
     * Frozen string literals, appended to the frozen segment; when it is full, a new segment reserving twice as much
     * (the frozen object heap's growth, docs/reference/clr-layouts.md). Objects over 64 KiB are never frozen.
     */
    public void placeFrozen(TypeDef type, long count, Step.Lengths lengths, Random r) {
        if (type.shape() != TypeDef.Shape.STRING) {
            throw new IllegalArgumentException("the frozen segment holds string literals, not " + type.name());
        }
        TypeSystem.Placed placed = types.placed(type);
        Step.Lengths.Sampler sampler = lengths.sampler(r);
        long largest = layout.constant("frozen_segment.max_object_size");
        for (long i = 0; i < count; i++) {
            long n = sampler.next();
            long size = step(type.size(n));
            if (size > largest) {
                throw new IllegalArgumentException(String.format("a frozen string of %,d characters (%,d bytes): objects over %,d bytes are never frozen",
                        n, size, largest));
            }
            if (frozenSegment.room() < size) {
                newFrozenSegment(heaps.get(0), 2 * (frozenSegment.reserved - frozenSegment.start));
            }
            long at = writeObject(runAt(frozenSegment), placed, n, false);
            frozenSegment.cursor = frozenSegment.current.end;
            objects.referenceTarget(at);
        }
    }

    /** Writes every object's references and fills the finalization queues ({@link ReferenceWriter}), the heap laid out. */
    public void writeReferences(Random random) {
        if (segmented != null) {
            heaps.forEach(segmented::seal);
        }
        new ReferenceWriter(process, types, objects.frozenTargets(), random).write(heaps);
    }

    /** Writes the values of every object's fields that are no references ({@link FieldValueWriter}), the heap laid out. */
    public void writeFieldValues(Random random) {
        new FieldValueWriter(process, types.fields(), random).write();
    }

    public long step(long size) {
        return truth.step(size);
    }

    /**
     * Places an object directly in a region of {@code generation} (1, 2, LOH or POH; 0 only for edge cases), the LOH
     * ones after their padding; small-object generations send objects of 85,000 bytes or more to the LOH, as the
     * allocator does. Returns its address.
     */
    public long place(Heap heap, int generation, TypeDef spec, long count, boolean dies) {
        return place(heap, generation, types.placed(spec), count, dies);
    }

    public long place(Heap heap, int generation, TypeSystem.Placed spec, long count, boolean dies) {
        long size = spec.def().size(count);
        int where = generation <= 2 && size >= lohThreshold ? LOH : generation;
        long need = step(size) + (where == LOH ? padSize : 0);
        RegionState region = fillRegion(heap, where, need);
        GroundTruth.Run run = runAt(region);
        if (where == LOH) {
            writeFree(run, padSize, GroundTruth.Kind.PADDING);
        }
        long at = writeObject(run, spec, count, dies);
        region.cursor = run.end;
        return at;
    }

    public long writeObject(GroundTruth.Run run, TypeDef spec, long count, boolean dies) {
        return writeObject(run, types.placed(spec), count, dies);
    }

    /** Writes an object at the end of {@code run} (its header slot before it stays zero), records it, and returns its address. */
    public long writeObject(GroundTruth.Run run, TypeSystem.Placed placed, long count, boolean dies) {
        return objects.write(run, placed, count, dies);
    }

    /** A free object of {@code size} bytes at the end of {@code run}, several from 4 GiB on ({@link ObjectWriter#writeFree}). */
    public void writeFree(GroundTruth.Run run, long size, GroundTruth.Kind kind) {
        objects.writeFree(run, size, kind);
    }

    /**
     * A new allocation context of at least {@code need} bytes from the heap's gen0 region: [ptr, limit), limit + 24
     * reserved (the slow path); when the region has no room left, a new gen0 region becomes the ephemeral one.
     */
    public AllocationContext newContext(Heap heap, long need) {
        RegionState gen0 = segmented != null ? segmented.gen0(heap) : heap.gen0();
        long reserve = layout.constant("alloc_context.tail_reserve");
        long bytes = Math.max(ProcessLayout.ALLOCATION_QUANTUM, need + reserve);
        if (gen0.room() < bytes) {
            gen0 = segmented != null ? segmented.fill(heap, 0, bytes) : newRegion(heap, 0, bytes);
        }
        long ptr = gen0.cursor;
        gen0.cursor += bytes;
        GroundTruth.Run run = truth.startRun(ptr, heap.index, 0);
        gen0.runs.add(run);
        gen0.swept = false;
        return new AllocationContext(ptr, ptr + bytes - reserve, run);
    }

    /**
     * Segments GC: a context at gen0's start, right after its allocation_start object (gen0 must hold nothing else yet:
     * a collection has just opened it). Under Microsoft's 9.0.1 DAC a context ending at gen0's start instead (in gen1)
     * crashes the DAC's own heap walker: no runtime leaves one there.
     */
    public AllocationContext newContextAtGen0Start(Heap heap, long need) {
        if (segmented == null) {
            throw new IllegalArgumentException("a context at gen0's start needs the segments GC (\"gcMode\": \"segments\")");
        }
        if (!segmented.gen0Empty(heap)) {
            throw new IllegalArgumentException("context-at-generation-start needs gen0 empty when its context is placed: end the program with a "
                    + "collection, and leave out exhausted-context and chained-contexts, whose contexts are placed in gen0 before it");
        }
        return newContext(heap, need);
    }

    /** The heap's next gen0 region becomes the ephemeral one, as when the slow path finds the current one full. */
    public void startGen0Region(Heap heap) {
        regionsOnly("a new gen0 region");
        newRegion(heap, 0, 0);
    }

    /** A context that takes the rest of the heap's gen0 region: its limit + 24 is the region's reserved end (§16). */
    public AllocationContext newContextToRegionEnd(Heap heap) {
        regionsOnly("a context to a region's end");
        long reserve = layout.constant("alloc_context.tail_reserve");
        RegionState gen0 = heap.gen0();
        if (gen0.room() < ProcessLayout.ALLOCATION_QUANTUM) {
            gen0 = newRegion(heap, 0, 0);
        }
        long ptr = gen0.cursor;
        gen0.cursor = gen0.reserved;
        GroundTruth.Run run = truth.startRun(ptr, heap.index, 0);
        gen0.runs.add(run);
        gen0.swept = false;
        return new AllocationContext(ptr, gen0.reserved - reserve, run);
    }

    /**
     * A collection of generations 0..{@code condemned} (Step.Collect), run by {@link Collector}: every allocation
     * context must have been given up.
     */
    public void collect(int condemned) {
        new Collector(this, truth).collect(condemned);
    }

    /** After a collection: a fresh gen0 region (regions), or gen0's new start at the end of the ephemeral segment (segments). */
    void startGen0AfterCollection(Heap heap) {
        if (segmented != null) {
            segmented.afterCollection(heap);
        } else {
            newRegion(heap, 0, 0);
        }
    }
}
