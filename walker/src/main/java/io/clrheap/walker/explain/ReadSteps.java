package io.clrheap.walker.explain;

import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.Memory;
import io.clrheap.walker.discovery.Read;
import io.clrheap.walker.heap.FieldRead;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns a read discovery made ({@link Read}) into an {@link ExplainStep}: the read as made, what its value means in
 * the chase, and the bytes around it. The meanings say what the runtime's source says the field is
 * (docs/reference/discovery.md sections 4-8; docs/reference/clr-layouts.md for the in-process path's).
 */
final class ReadSteps {

    private final Memory memory;
    private final RuntimeLayout layout;
    /** Excerpts taken as the reads were made, for memory that changes after (a process's): by identity of the read. */
    private final Map<Read, HexExcerpt> taken;

    ReadSteps(Memory memory, RuntimeLayout layout) {
        this(memory, layout, Map.of());
    }

    ReadSteps(Memory memory, RuntimeLayout layout, Map<Read, HexExcerpt> taken) {
        this.memory = memory;
        this.layout = layout;
        this.taken = taken;
    }

    /** The bytes around a read, as they are now. */
    static HexExcerpt excerpt(Memory memory, Read r) {
        return HexExcerpt.of(memory, r.site().address(), r.size());
    }

    ExplainStep step(Read r) {
        return step(r, meaning(r));
    }

    ExplainStep step(Read r, String meaning) {
        FieldRead s = r.site();
        // a variable read whole, or an entry of g_heaps, is named in full: n_heaps (value), g_heaps[1]
        String field = s.field().equals("(value)") || s.structure().equals("g_heaps") ? s.name() : s.field();
        return new ExplainStep(s.structure(), s.base(), field, s.offset(), r.type(), s.address(), r.value(), meaning, s.source(),
                taken.containsKey(r) ? taken.get(r) : excerpt(memory, r));
    }

    /** {@code heap_segment.next at 0x7f… cannot be read: 8 bytes at 0x7f… are not in core: not mapped}. */
    static String missing(Read r) {
        return FieldReader.format("%s at 0x%x cannot be read: %s", r.site().name(), r.site().address(), r.missing());
    }

    String meaning(Read r) {
        String field = r.site().field();
        long v = r.value();
        return switch (r.site().structure()) {
            case "g_dacTable" -> "&" + field.substring(field.indexOf("] ") + 2) + ": the runtime global's address";
            case "g_gcDacGlobals" -> "GcDacVars*: what the GC publishes for the DAC";
            case "g_pFreeObjectMethodTable" -> "the free object's MethodTable";
            case "ThreadStore::s_pThreadStore" -> "ThreadStore*";
            case "g_pGCHeap" -> "the GCHeap (IGCHeap*)";
            case "gc_structures_invalid_cnt" -> v == 0 ? "not inside a GC" : "inside a GC; objects may move";
            case "n_heaps" -> v + " heaps";
            case "g_heaps" -> field.startsWith("[") ? "heap " + field.substring(1, field.length() - 1) + "'s gc_heap" : "gc_heap* g_heaps[]";
            case "generation_field_offsets" -> published("generation", field, v);
            case "gc_heap_field_offsets" -> v < 0 ? "this build publishes no such field: no heap is walked" : published("gc_heap", field, v);
            case "GcDacVars" -> gcDacVars(field, v);
            case "gc_heap", "gc_heap::alloc_allocated", "gc_heap::ephemeral_heap_segment", "gc_heap::finalize_queue" ->
                    gcHeap(field.equals("(value)") ? r.site().structure().substring("gc_heap::".length()) : field);
            case "generation" -> field.equals("allocation_start") ? "where the generation's objects start in the ephemeral segment"
                    : "the first heap_segment of the generation's list";
            case "heap_segment" -> heapSegment(field, v);
            case "gc_alloc_context" -> switch (field) {
                case "alloc_ptr" -> v == 0 ? "0: not in use" : "the next object goes here";
                case "alloc_limit" -> "usable end";
                case "gc_reserved_1" -> v == 0 ? "0: not set (never under workstation GC)" : "its heap's GCHeap* (server GC)";
                default -> "";
            };
            case "ThreadStore" -> v == 0 ? "no thread" : "the first Thread's m_Link";
            case "Thread" -> thread(field, v);
            case "GCHeap" -> "word 0: the IGCHeap vtable (IGCHeap has no data members)";
            case "IGCHeapVtable" -> {
                long slot = layout.offset("IGCHeapVtable", field) / layout.constant("IGCHeap.slot_size");
                yield FieldReader.format("slot %d (0x%x / %d): the code of %s", slot, r.site().offset(), layout.constant("IGCHeap.slot_size"), field);
            }
            default -> "";
        };
    }

    /** {@code [1] start_segment}: the published offset, against the profile's. */
    private String published(String type, String element, long v) {
        String name = element.substring(element.indexOf("] ") + 2);
        if (layout.findType(type).flatMap(t -> t.findField(name)).isEmpty()) {
            // generation.allocation_start: only a segments GC has it (a standalone libclrgc.so); the profile, the runtime's
            // own regions GC's, does not
            return v == -1 ? "-1: a regions GC (no allocation_start)" : FieldReader.format("+0x%x, a segments GC's (the profile has no such field)", v);
        }
        long profile = layout.offset(type, name);
        return v == profile ? FieldReader.format("+0x%x, as the profile says [%s]", v, FieldReader.source(layout.field(type, name).provenance()))
                : FieldReader.format("+0x%x; the profile says +0x%x: the published offset is used", v, profile);
    }

    private static String gcDacVars(String field, long v) {
        return switch (field) {
            case "generation_size" -> "the generation table's stride";
            case "gc_structures_invalid_cnt" -> "&gc_structures_invalid_cnt (int32)";
            case "generation_field_offsets" -> v == 0 ? "not published: the profile's offsets are used" : "→ int32[3] (below)";
            case "n_heaps" -> "&n_heaps (int32)";
            case "g_heaps" -> "&g_heaps (gc_heap**)";
            case "gc_heap_field_offsets" -> "→ int32[] (below)";
            case "generation_table" -> "&gc_heap::generation_table[0] (a static under workstation GC)";
            case "alloc_allocated", "ephemeral_heap_segment", "finalize_queue" -> "&gc_heap::" + field + " (a static under workstation GC)";
            default -> "";
        };
    }

    private static String gcHeap(String field) {
        return switch (field) {
            case "alloc_allocated" -> "end of the ephemeral region's objects";
            case "ephemeral_heap_segment" -> "the region gen0 allocates in";
            case "finalize_queue" -> "the heap's finalization queue (CFinalize*)";
            default -> "";
        };
    }

    private String heapSegment(String field, long v) {
        return switch (field) {
            case "allocated" -> "end of the objects";
            case "committed" -> "end of the committed memory";
            case "reserved" -> "end of the reservation";
            case "mem" -> "the first object";
            case "flags" -> flags(v);
            case "next" -> v == 0 ? "the end of the list" : "the next heap_segment of this list";
            case "heap" -> "the gc_heap owning this region";
            default -> "";
        };
    }

    private String flags(long flags) {
        List<String> names = new ArrayList<>();
        for (var c : layout.constants().entrySet()) {
            if (c.getKey().startsWith("heap_segment.flags.") && (flags & c.getValue().value()) != 0) {
                names.add(c.getKey().substring("heap_segment.flags.".length()));
            }
        }
        return names.isEmpty() ? "no flag: a read-write region" : String.join(" | ", names)
                + (names.contains("readonly") ? ": a frozen (non-GC) segment" : "");
    }

    private static String thread(String field, long v) {
        return switch (field) {
            case "Id" -> "the managed thread id";
            case "OSId" -> "the operating system's thread id";
            case "RuntimeThreadLocals" -> v == 0 ? "no RuntimeThreadLocals: the thread never allocated" : "RuntimeThreadLocals*";
            case "LinkNext" -> v == 0 ? "the end of the thread list" : "the next Thread's m_Link";
            default -> "";
        };
    }
}
