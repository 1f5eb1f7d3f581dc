package io.clrheap.walker.discovery;

import io.clrheap.layout.GcFlavor;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.heap.ProblemKind;
import java.util.List;

/**
 * Finds the heaps' gc_heap members (docs/reference/discovery.md section 6). Server GC: {@code n_heaps},
 * {@code g_heaps} and the gc_heap field offsets the GC publishes; workstation GC: one heap whose members are statics
 * GcDacVars points at. First {@link #locate} reads GcDacVars' fields, then {@link #count} the published offsets,
 * then {@link #read} each heap.
 */
final class HeapRootsReader {

    /** The gc_heap fields discovery reads, in this order (GENERATION_TABLE_FIELD_INDEX: DACH). */
    private static final String[] GC_HEAP_FIELDS = {"alloc_allocated", "ephemeral_heap_segment", "finalize_queue", "generation_table"};

    private final Chase chase;
    private final boolean server;
    private long vars;
    // server: what GcDacVars points at
    private final FieldSpec nHeapsValue = FieldSpec.variable("n_heaps", "int32", 4, true, "GcDacVars.n_heaps");
    private long nHeapsVariable;
    private long gHeapsVariable;
    private long offsetArray;
    private int count;
    private long heapArray;
    private FieldSpec[] gcHeapFields;
    // workstation: the statics' addresses
    private long generationTable;
    private final long[] statics = new long[3];

    HeapRootsReader(Chase chase) {
        this.chase = chase;
        this.server = chase.layout.gc() == GcFlavor.SERVER;
    }

    /** Reads GcDacVars' fields that lead to the heaps; false (with a problem) when they cannot be read. */
    boolean locate(long vars) {
        this.vars = vars;
        return server ? locateServer(vars) : locateWorkstation(vars);
    }

    private boolean locateServer(long vars) {
        try {
            nHeapsVariable = chase.read(chase.field("GcDacVars", "n_heaps"), vars);
            count = (int) chase.read(nHeapsValue, nHeapsVariable);
        } catch (MissingMemoryException e) {
            chase.problem(ProblemKind.UNREADABLE_STRUCTURE, chase.failedRead().address(), "", "n_heaps cannot be read (" + e.getMessage()
                    + "); no heap is walked", chase.failedRead());
            return false;
        }
        try {
            gHeapsVariable = chase.read(chase.field("GcDacVars", "g_heaps"), vars);
            heapArray = chase.read(FieldSpec.variable("g_heaps", "pointer", 8, false, "GcDacVars.g_heaps"), gHeapsVariable);
            offsetArray = chase.read(chase.field("GcDacVars", "gc_heap_field_offsets"), vars);
        } catch (MissingMemoryException e) {
            unreadableHeaps(e);
            return false;
        }
        return true;
    }

    private void unreadableHeaps(MissingMemoryException e) {
        chase.problem(ProblemKind.UNREADABLE_STRUCTURE, gHeapsVariable != 0 ? gHeapsVariable : chase.failedRead().address(), "",
                "g_heaps or gc_heap_field_offsets cannot be read (" + e.getMessage() + "); no heap is walked", chase.failedRead());
    }

    private boolean locateWorkstation(long vars) {
        try {
            generationTable = chase.read(chase.field("GcDacVars", "generation_table"), vars);
            statics[0] = chase.read(chase.field("GcDacVars", "alloc_allocated"), vars);
            statics[1] = chase.read(chase.field("GcDacVars", "ephemeral_heap_segment"), vars);
            statics[2] = chase.read(chase.field("GcDacVars", "finalize_queue"), vars);
        } catch (MissingMemoryException e) {
            unreadableWorkstationHeap(e);
            return false;
        }
        return true;
    }

    private void unreadableWorkstationHeap(MissingMemoryException e) {
        chase.problem(ProblemKind.UNREADABLE_STRUCTURE, vars, "heap 0", "the workstation heap's alloc_allocated, ephemeral_heap_segment or "
                + "finalize_queue cannot be read (" + e.getMessage() + "); no heap is walked", chase.failedRead());
    }

    /** How many heaps to read: 1 under workstation GC; under server GC n_heaps, or as many as g_heaps shows when n_heaps is implausible. */
    int count() {
        if (!server) {
            return 1;
        }
        List<String> order = chase.layout.dacFieldOrder().get("gc_heap");
        if (chase.listening()) {
            chase.emit(new OffsetsPublished("gc_heap_field_offsets", offsetArray, order.size()));
        }
        try {
            gcHeapFields = publishedGcHeapFields(order);
        } catch (MissingMemoryException e) {
            unreadableHeaps(e);
            return 0;
        }
        if (gcHeapFields == null) {
            return 0;
        }
        if (count < 1 || count > chase.limits.maxHeaps()) {
            // One corrupt int should not hide every heap: g_heaps still lists them, and each gc_heap owns its
            // ephemeral region (heap_segment.heap points back to it), which a stray pointer does not
            int counted = countHeaps();
            chase.problem(ProblemKind.BAD_HEAP_COUNT, nHeapsVariable, "", String.format(
                    "n_heaps is %d, outside 1..%d; %s", count, chase.limits.maxHeaps(), counted == 0
                            ? "no entry of g_heaps is a gc_heap owning its ephemeral region; no heap is walked"
                            : "the first " + counted + " entries of g_heaps are gc_heaps owning their ephemeral region; those are walked"),
                    nHeapsValue.at(nHeapsVariable));
            count = counted;
        }
        return count;
    }

    /**
     * The four gc_heap fields discovery reads, at the offsets the GC publishes (dacFieldOrder.gc_heap); null (with a
     * problem) when the build says it has no such field.
     */
    private FieldSpec[] publishedGcHeapFields(List<String> order) {
        FieldSpec[] fields = new FieldSpec[GC_HEAP_FIELDS.length];
        for (int f = 0; f < GC_HEAP_FIELDS.length; f++) {
            String name = GC_HEAP_FIELDS[f];
            long profile = chase.layout.offset("gc_heap", name);
            int index = order.indexOf(name);
            FieldSpec element = new FieldSpec("gc_heap_field_offsets", "[" + index + "] " + name, 4L * index, "int32", 4, true, Chase.PUBLISHED);
            long published = chase.read(element, offsetArray);
            if (published < 0) {
                chase.problem(ProblemKind.UNREADABLE_STRUCTURE, offsetArray + 4L * index, "", String.format(
                        "gc_heap_field_offsets[%d] (%s) is %d: this build publishes no such gc_heap field; no heap is walked",
                        index, name, published), element.at(offsetArray));
                return null;
            }
            // a standalone GC lays out its gc_heap its own way: the profile's offsets are the runtime's own GC's
            if (published != profile && chase.target.gcModule().isEmpty()) {
                chase.problem(ProblemKind.OFFSET_MISMATCH, offsetArray + 4L * index, "", String.format(
                        "gc_heap_field_offsets[%d] (%s) = %d, the profile says %d; using the published offset", index, name, published, profile),
                        element.at(offsetArray));
            }
            fields[f] = new FieldSpec("gc_heap", name, published, "pointer", 8, false, Chase.PUBLISHED);
        }
        return fields;
    }

    /**
     * How many leading entries of {@code g_heaps} are gc_heaps whose ephemeral region's {@code heap_segment.heap}
     * points back to them (at most {@link io.clrheap.walker.heap.WalkLimits#maxHeaps()}): the heap count when n_heaps
     * cannot be believed. Builds without {@code heap_segment.heap} give 0.
     */
    private int countHeaps() {
        if (chase.layout.type("heap_segment").findField("heap").isEmpty()) {
            return 0;
        }
        FieldSpec owner = chase.field("heap_segment", "heap");
        int n = 0;
        try {
            for (; n < chase.limits.maxHeaps(); n++) {
                long heap = chase.read(heapEntry(n), heapArray);
                long ephemeral = heap == 0 ? 0 : chase.read(gcHeapFields[1], heap);
                if (ephemeral == 0 || chase.read(owner, ephemeral) != heap) {
                    break;
                }
            }
        } catch (MissingMemoryException e) {
            // the entry, its gc_heap or its region is not in the dump: the heaps end before it
        }
        return n;
    }

    private static FieldSpec heapEntry(int i) {
        return new FieldSpec("g_heaps", "[" + i + "]", 8L * i, "pointer", 8, false, "gc_heap* g_heaps[]: 8 bytes an entry");
    }

    /** Heap {@code i}'s members, or null (with a problem) when they cannot be read. */
    HeapRoots read(int i) {
        if (chase.listening()) {
            chase.emit(new HeapEntered(i));
        }
        return server ? readServer(i) : readWorkstation();
    }

    /** Where {@code g_heaps[i]} lies (server GC). */
    long entryAddress(int i) {
        return heapArray + 8L * i;
    }

    /**
     * The gc_heap at {@code gcHeap}, read as heap {@code index} with the published offsets: a heap that g_heaps does not
     * list (a damaged entry) but whose regions name it as their owner. Null when it cannot be read, or under workstation GC.
     */
    HeapRoots readOwner(int index, long gcHeap) {
        if (!server || gcHeapFields == null) {
            return null;
        }
        try {
            return rootsAt(index, gcHeap);
        } catch (MissingMemoryException e) {
            return null;
        }
    }

    /** Heap {@code index}'s roots, read from its gc_heap at the published offsets. */
    private HeapRoots rootsAt(int index, long heap) {
        long allocAllocated = chase.read(gcHeapFields[0], heap);
        long ephemeral = chase.read(gcHeapFields[1], heap);
        long finalizeQueue = chase.read(gcHeapFields[2], heap);
        return new HeapRoots(index, heap, heap + gcHeapFields[3].offset(), allocAllocated, ephemeral, finalizeQueue, gcHeapFields[0].at(heap),
                gcHeapFields[1].at(heap));
    }

    private HeapRoots readServer(int i) {
        long heap = 0;
        try {
            heap = chase.read(heapEntry(i), heapArray);
            return rootsAt(i, heap);
        } catch (MissingMemoryException e) {
            chase.problem(ProblemKind.UNREADABLE_STRUCTURE, heap == 0 ? heapArray + 8L * i : heap, "heap " + i,
                    String.format("g_heaps[%d] (gc_heap 0x%x) cannot be read (%s); this heap is not walked", i, heap, e.getMessage()),
                    chase.failedRead());
            return null;
        }
    }

    private HeapRoots readWorkstation() {
        FieldSpec allocAllocated = FieldSpec.variable("gc_heap::alloc_allocated", "pointer", 8, false, "GcDacVars.alloc_allocated");
        try {
            long end = chase.read(allocAllocated, statics[0]);
            FieldSpec ephemeralSegment = FieldSpec.variable("gc_heap::ephemeral_heap_segment", "pointer", 8, false, "GcDacVars.ephemeral_heap_segment");
            long ephemeral = chase.read(ephemeralSegment, statics[1]);
            long finalizeQueue = chase.read(FieldSpec.variable("gc_heap::finalize_queue", "pointer", 8, false, "GcDacVars.finalize_queue"), statics[2]);
            return new HeapRoots(0, 0, generationTable, end, ephemeral, finalizeQueue, allocAllocated.at(statics[0]), ephemeralSegment.at(statics[1]));
        } catch (MissingMemoryException e) {
            unreadableWorkstationHeap(e);
            return null;
        }
    }
}
