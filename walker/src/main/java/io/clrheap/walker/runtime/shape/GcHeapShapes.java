package io.clrheap.walker.runtime.shape;

import io.clrheap.layout.Certainty;
import io.clrheap.layout.FieldLayout;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.TypeLayout;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the fields of a server GC's {@code gc_heap} are in a build: the offsets the GC publishes in
 * {@code GcDacVars.gc_heap_field_offsets} (in the order of the profile's {@code dacFieldOrder.gc_heap}; -1 for a field
 * the build does not have), checked where a shape says more (the ephemeral segment belongs to its heap,
 * alloc_allocated lies in it), and the two it does not publish, found by their shape near the profile's offset:
 * {@code vm_heap}, the owning GCHeap (a vtable in the runtime module, whose {@code pGenGCHeap} is this gc_heap), and
 * {@code heap_number}, an int32 equal to the heap's index in g_heaps. Also {@code generation_field_offsets} against the
 * profile's generation. Every read is bounded; missing memory is reported, not thrown.
 */
public final class GcHeapShapes {

    /** Unpublished fields are looked for this far either side of where the profile has them. */
    static final int SCAN = 0x200;
    /** A gc_heap is 13-14 KB in 8-10; a published offset beyond this is garbage. */
    static final long MAX_OFFSET = 1 << 20;

    private final ShapeInput in;
    private final Memory memory;
    private final RuntimeLayout layout;
    private final long gcDacVars;
    private final List<String> checks = new ArrayList<>();

    /**
     * @param in        the memory and module, with a server-GC profile (its gc_heap gives the fields and the offsets
     *                  to look near)
     * @param gcDacVars the address of GcDacVars ({@code *g_dacTable[g_gcDacGlobals]})
     */
    public GcHeapShapes(ShapeInput in, long gcDacVars) {
        this.in = in;
        this.memory = in.memory();
        this.layout = in.layout();
        this.gcDacVars = gcDacVars;
    }

    private static final class Mismatch extends RuntimeException {
        Mismatch(String message) {
            super(message, null, false, false);
        }
    }

    public GcHeapDerivation derive() {
        checks.clear();
        Map<String, FieldFinding> fields = new HashMap<>();
        Map<String, String> unresolved = new HashMap<>();
        Optional<TypeLayout> profileHeap = layout.findType("gc_heap");
        if (profileHeap.isEmpty()) {
            unresolved.put("gc_heap", "the " + layout.describe() + " profile has no gc_heap (a server-GC profile is needed)");
            return new GcHeapDerivation(0, fields, unresolved, checks);
        }
        TypeLayout heapType = profileHeap.get();
        List<Long> heaps;
        try {
            heaps = heaps();
        } catch (Mismatch | MissingMemoryException e) {
            for (FieldLayout f : heapType.fields()) {
                unresolved.put(f.name(), "cannot read the server heaps: " + e.getMessage());
            }
            return new GcHeapDerivation(0, fields, unresolved, checks);
        }
        published(heapType, heaps, fields, unresolved);
        generationOffsets();
        unpublished(heapType, heaps, fields, unresolved);
        for (FieldLayout f : heapType.fields()) {
            if (!fields.containsKey(f.name()) && !unresolved.containsKey(f.name())) {
                unresolved.put(f.name(), "neither published in gc_heap_field_offsets nor found by a shape");
            }
        }
        return new GcHeapDerivation(heaps.size(), fields, unresolved, checks);
    }

    private List<Long> heaps() {
        long nHeaps = memory.readPointer(gcDacVars + layout.offset("GcDacVars", "n_heaps"));
        if (nHeaps == 0) {
            throw new Mismatch(String.format("GcDacVars 0x%x: n_heaps is null: a workstation GC, which has no gc_heap objects", gcDacVars));
        }
        int n = memory.readInt(nHeaps);
        if (n < 1 || n > DacTableShapes.MAX_HEAPS) {
            throw new Mismatch(String.format("GcDacVars 0x%x: *n_heaps (0x%x) = %d", gcDacVars, nHeaps, n));
        }
        long array = memory.readPointer(memory.readPointer(gcDacVars + layout.offset("GcDacVars", "g_heaps")));
        List<Long> heaps = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long h = memory.readPointer(array + 8L * i);
            if (h == 0 || (h & 7) != 0) {
                throw new Mismatch(String.format("g_heaps[%d] (0x%x) is 0x%x", i, array + 8L * i, h));
            }
            heaps.add(h);
        }
        checks.add(String.format("n_heaps = %d; g_heaps 0x%x: %s", n, array, hexes(heaps)));
        return heaps;
    }

    private static String hexes(List<Long> values) {
        return String.join(", ", values.stream().map(v -> String.format("0x%x", v)).toList());
    }

    private void published(TypeLayout heapType, List<Long> heaps, Map<String, FieldFinding> fields, Map<String, String> unresolved) {
        List<String> order = layout.dacFieldOrder().getOrDefault("gc_heap", List.of());
        long array;
        try {
            array = memory.readPointer(gcDacVars + layout.offset("GcDacVars", "gc_heap_field_offsets"));
            if (array == 0) {
                throw new Mismatch("GcDacVars.gc_heap_field_offsets is null");
            }
        } catch (Mismatch | MissingMemoryException e) {
            for (String name : order) {
                if (heapType.findField(name).isPresent()) {
                    unresolved.put(name, "cannot read gc_heap_field_offsets: " + e.getMessage());
                }
            }
            return;
        }
        for (int k = 0; k < order.size(); k++) {
            String name = order.get(k);
            Optional<FieldLayout> profile = heapType.findField(name);
            int offset;
            try {
                offset = memory.readInt(array + 4L * k);
            } catch (MissingMemoryException e) {
                if (profile.isPresent()) {
                    unresolved.put(name, String.format("gc_heap_field_offsets[%d] at 0x%x: %s", k, array + 4L * k, e.getMessage()));
                }
                continue;
            }
            if (offset == -1) {
                checks.add(String.format("gc_heap_field_offsets[%d] (%s) = -1: not in this GC", k, name));
                if (profile.isPresent()) {
                    unresolved.put(name, String.format("gc_heap_field_offsets[%d] is -1 (the GC has no %s), but the profile has it", k, name));
                }
                continue;
            }
            if (offset < 0 || offset > MAX_OFFSET) {
                unresolved.put(name, String.format("gc_heap_field_offsets[%d] (0x%x) = %d: not an offset in a gc_heap", k, array + 4L * k, offset));
                continue;
            }
            if (profile.isEmpty()) {
                checks.add(String.format("gc_heap_field_offsets[%d] (%s) = %d: not a field of the profile's gc_heap", k, name, offset));
                continue;
            }
            String evidence = String.format("gc_heap_field_offsets[%d] = %d", k, offset);
            try {
                String shape = publishedShape(name, offset, heaps);
                if (shape != null) {
                    evidence += "; " + shape;
                }
            } catch (Mismatch | MissingMemoryException e) {
                unresolved.put(name, evidence + ", but " + e.getMessage());
                continue;
            }
            fields.put(name, new FieldFinding(name, offset, profile.get().type().name(), Certainty.DUMP, evidence));
            checks.add(String.format("gc_heap.%s at 0x%x: %s", name, offset, evidence));
        }
    }

    /** What more a published field's value says, where it says something: null when nothing is checked. */
    private String publishedShape(String name, int offset, List<Long> heaps) {
        switch (name) {
            case "ephemeral_heap_segment" -> {
                Optional<FieldLayout> owner = layout.type("heap_segment").findField("heap");
                if (owner.isEmpty()) {
                    return null;
                }
                for (long h : heaps) {
                    long seg = memory.readPointer(h + offset);
                    long heap = memory.readPointer(seg + owner.get().offset());
                    if (heap != h) {
                        throw new Mismatch(String.format("gc_heap 0x%x's ephemeral segment 0x%x belongs to heap 0x%x (heap_segment.heap)", h, seg, heap));
                    }
                }
                return "on every heap a heap_segment whose heap (+0x" + Long.toHexString(owner.get().offset()) + ") is that gc_heap";
            }
            case "alloc_allocated" -> {
                int k = layout.dacFieldOrder().get("gc_heap").indexOf("ephemeral_heap_segment");
                long array = memory.readPointer(gcDacVars + layout.offset("GcDacVars", "gc_heap_field_offsets"));
                int ephemeral = memory.readInt(array + 4L * k);
                long mem = layout.offset("heap_segment", "mem");
                long reserved = layout.offset("heap_segment", "reserved");
                for (long h : heaps) {
                    long allocated = memory.readPointer(h + offset);
                    long seg = memory.readPointer(h + ephemeral);
                    long start = memory.readPointer(seg + mem);
                    long end = memory.readPointer(seg + reserved);
                    if (allocated < start || allocated > end) {
                        throw new Mismatch(String.format("gc_heap 0x%x's alloc_allocated 0x%x is outside its ephemeral region [0x%x, 0x%x)", h, allocated, start, end));
                    }
                }
                return "on every heap inside its ephemeral region";
            }
            default -> {
                return null;
            }
        }
    }

    private void generationOffsets() {
        try {
            long array = memory.readPointer(gcDacVars + layout.offset("GcDacVars", "generation_field_offsets"));
            List<String> order = layout.dacFieldOrder().getOrDefault("generation", List.of());
            TypeLayout generation = layout.type("generation");
            List<String> seen = new ArrayList<>();
            List<String> differ = new ArrayList<>();
            for (int k = 0; k < order.size(); k++) {
                int offset = memory.readInt(array + 4L * k);
                seen.add(order.get(k) + " " + offset);
                Optional<FieldLayout> f = generation.findField(order.get(k));
                long expected = f.map(FieldLayout::offset).orElse(-1L);
                if (offset != expected) {
                    differ.add(String.format("%s is %d, the profile's %d", order.get(k), offset, expected));
                }
            }
            checks.add(String.format("generation_field_offsets (0x%x): %s%s", array, String.join(", ", seen),
                    differ.isEmpty() ? ": as the profile's generation" : "; DIFFER: " + String.join("; ", differ)));
        } catch (MissingMemoryException e) {
            checks.add("generation_field_offsets: cannot read: " + e.getMessage());
        }
    }

    private void unpublished(TypeLayout heapType, List<Long> heaps, Map<String, FieldFinding> fields, Map<String, String> unresolved) {
        Optional<FieldLayout> vmHeap = heapType.findField("vm_heap");
        Optional<FieldLayout> heapNumber = heapType.findField("heap_number");
        long found = -1;
        if (vmHeap.isPresent()) {
            found = vmHeap(vmHeap.get(), heaps, fields, unresolved);
        }
        if (heapNumber.isPresent()) {
            long expected = heapNumber.get().offset();
            String relation = "where the profile has it";
            if (vmHeap.isPresent() && found >= 0) {
                expected = found + (heapNumber.get().offset() - vmHeap.get().offset());
                relation = String.format("vm_heap + %d, as in the profile", heapNumber.get().offset() - vmHeap.get().offset());
            }
            heapNumber(heapNumber.get(), expected, relation, heaps, fields, unresolved);
        }
    }

    /** vm_heap: on every heap a pointer to a GCHeap whose first word is a vtable in the module and whose pGenGCHeap is this gc_heap. */
    private long vmHeap(FieldLayout field, List<Long> heaps, Map<String, FieldFinding> fields, Map<String, String> unresolved) {
        long back = layout.offset("GCHeap", "pGenGCHeap");
        List<Long> candidates = new ArrayList<>();
        for (long o = Math.max(0, (field.offset() - SCAN) & ~7L); o <= field.offset() + SCAN; o += 8) {
            if (vmHeapAt(o, back, heaps)) {
                candidates.add(o);
            }
        }
        if (candidates.isEmpty()) {
            unresolved.put(field.name(), String.format("no offset within 0x%x of the profile's 0x%x holds, on every heap, a GCHeap (a vtable in %s) whose "
                    + "pGenGCHeap (+0x%x) is that gc_heap", SCAN, field.offset(), in.moduleName(), back));
            return -1;
        }
        long o = nearest(candidates, field.offset());
        List<String> targets = new ArrayList<>();
        for (long h : heaps) {
            targets.add(String.format("0x%x -> 0x%x", h, memory.readPointer(h + o)));
        }
        String evidence = String.format("on each of the %d heaps a GCHeap (vtable 0x%x in %s) whose pGenGCHeap (+0x%x) is that gc_heap: %s%s",
                heaps.size(), memory.readPointer(memory.readPointer(heaps.get(0) + o)), in.moduleName(), back, String.join(", ", targets),
                candidates.size() > 1 ? String.format(" (offsets %s also fit; the nearest to the profile's 0x%x)", hexes(candidates.stream().filter(c -> c != o).toList()), field.offset()) : "");
        fields.put(field.name(), new FieldFinding(field.name(), o, field.type().name(), Certainty.DUMP, evidence));
        checks.add(String.format("gc_heap.%s at 0x%x: %s", field.name(), o, evidence));
        return o;
    }

    private boolean vmHeapAt(long offset, long back, List<Long> heaps) {
        try {
            for (long h : heaps) {
                long g = memory.readPointer(h + offset);
                if (g == 0 || (g & 7) != 0 || memory.readPointer(g + back) != h || !in.inModule(memory.readPointer(g))) {
                    return false;
                }
            }
            return true;
        } catch (MissingMemoryException e) {
            return false;
        }
    }

    /** heap_number: an int32 equal to the heap's index in g_heaps, on every heap. */
    private void heapNumber(FieldLayout field, long expected, String relation, List<Long> heaps, Map<String, FieldFinding> fields,
                            Map<String, String> unresolved) {
        List<Long> candidates = new ArrayList<>();
        for (long o = Math.max(0, (expected - SCAN) & ~3L); o <= expected + SCAN; o += 4) {
            if (heapNumberAt(o, heaps)) {
                candidates.add(o);
            }
        }
        if (candidates.isEmpty()) {
            unresolved.put(field.name(), String.format("no offset within 0x%x of 0x%x (%s) holds, on every heap, an int32 equal to the heap's index",
                    SCAN, expected, relation));
            return;
        }
        if (heaps.size() == 1) {
            if (!candidates.contains(expected)) {
                unresolved.put(field.name(), String.format("with one heap only 0 tells heap_number, and 0x%x (%s) does not hold 0", expected, relation));
                return;
            }
            String evidence = String.format("0 on the only heap at 0x%x (%s; with one heap any zero int32 fits: %d offsets near it do)", expected, relation,
                    candidates.size());
            fields.put(field.name(), new FieldFinding(field.name(), expected, field.type().name(), Certainty.INFERRED, evidence));
            checks.add(String.format("gc_heap.%s at 0x%x: %s", field.name(), expected, evidence));
            return;
        }
        long o = nearest(candidates, expected);
        String evidence = String.format("int32 equal to the heap's index on each of the %d heaps (%s)%s", heaps.size(), relation.startsWith("where") ? "near " + relation
                : "at " + relation, candidates.size() > 1 ? String.format("; offsets %s also fit, this is the nearest", hexes(candidates.stream().filter(c -> c != o).toList())) : "");
        fields.put(field.name(), new FieldFinding(field.name(), o, field.type().name(), Certainty.DUMP, evidence));
        checks.add(String.format("gc_heap.%s at 0x%x: %s", field.name(), o, evidence));
    }

    private boolean heapNumberAt(long offset, List<Long> heaps) {
        try {
            for (int i = 0; i < heaps.size(); i++) {
                if (memory.readInt(heaps.get(i) + offset) != i) {
                    return false;
                }
            }
            return true;
        } catch (MissingMemoryException e) {
            return false;
        }
    }

    private static long nearest(List<Long> candidates, long to) {
        long best = candidates.get(0);
        for (long c : candidates) {
            if (Math.abs(c - to) < Math.abs(best - to)) {
                best = c;
            }
        }
        return best;
    }
}
