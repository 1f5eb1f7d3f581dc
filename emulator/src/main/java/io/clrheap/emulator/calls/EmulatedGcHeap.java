package io.clrheap.emulator.calls;

import io.clrheap.emulator.gc.GcStatics;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.view.GcHeap;
import io.clrheap.layout.view.Generation;
import io.clrheap.layout.view.HeapSegment;
import io.clrheap.layout.view.SegmentInfo;
import io.clrheap.layout.view.ViewFactory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.memory.WritableMemory;
import io.clrheap.process.NativeCallException;
import io.clrheap.process.NativeCalls;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code IGCHeap} methods an in-process heap walker calls through the vtable, run as the GC runs them
 * (gc.cpp, regions): they read and write the GC's structures in the session's memory, never the emulator's own
 * bookkeeping, so what they report is what the process's memory says.
 */
final class EmulatedGcHeap {

    /** The longest region list followed; the GC's own lists are far shorter (a corrupt list must not loop forever). */
    private static final int MAX_SEGMENTS = 1 << 20;

    private final RuntimeLayout layout;
    private final GcStatics statics;
    private final WritableMemory memory;
    private final NativeCalls calls;
    private final ViewFactory views;
    private final long stride;
    private final long readonly;
    private final int generations;
    private final int gen2;

    EmulatedGcHeap(RuntimeLayout layout, GcStatics statics, WritableMemory memory, NativeCalls calls) {
        this.layout = layout;
        this.statics = statics;
        this.memory = memory;
        this.calls = calls;
        this.views = new ViewFactory(layout);
        this.stride = layout.type("generation").size().orElseThrow();
        this.readonly = layout.constant("heap_segment.flags.readonly");
        this.generations = (int) layout.constant("generation.count");
        this.gen2 = (int) layout.constant("generation.gen2");
    }

    /** Runs the function of vtable slot {@code slot} with {@code this} and its arguments. */
    long run(int slot, long function, long[] arguments) {
        String name = slot == layout.constant("IGCHeap.DiagDescrGenerations.slot") ? "DiagDescrGenerations"
                : slot == layout.constant("IGCHeap.RegisterFrozenSegment.slot") ? "RegisterFrozenSegment"
                : slot == layout.constant("IGCHeap.UnregisterFrozenSegment.slot") ? "UnregisterFrozenSegment" : null;
        if (name == null) {
            throw new NativeCallException(function, "IGCHeap vtable slot " + slot + " is not emulated; the emulated GC runs"
                    + " DiagDescrGenerations (slot 69), RegisterFrozenSegment (73) and UnregisterFrozenSegment (74)");
        }
        if (statics.segments()) {
            // its generation table and gc_heap are libclrgc.so's, not the runtime's own GC's these functions are written for
            throw new NativeCallException(function, "IGCHeap::" + name + " is not emulated for the standalone segments GC (libclrgc.so): "
                    + "the in-process path is emulated for the runtime's own regions GC; read a segments process through its dump");
        }
        int expected = name.equals("DiagDescrGenerations") ? 3 : 2;
        if (arguments.length != expected) {
            throw new NativeCallException(function, String.format("IGCHeap::%s takes this and %d argument%s, not %d values",
                    name, expected - 1, expected == 2 ? "" : "s", arguments.length));
        }
        checkThis(function, name, arguments[0]);
        try {
            return switch (name) {
                case "DiagDescrGenerations" -> {
                    descrGenerations(arguments[1], arguments[2]);
                    yield 0;
                }
                case "RegisterFrozenSegment" -> registerFrozenSegment(arguments[1]);
                default -> {
                    unregisterFrozenSegment(arguments[1]);
                    yield 0;
                }
            };
        } catch (MissingMemoryException e) {
            throw new NativeCallException(e.address(), "IGCHeap::" + name + " read or wrote memory that is not there: " + e.getMessage());
        }
    }

    /** {@code this} must be a GCHeap: an object whose first word is the IGCHeap vtable. */
    private void checkThis(long function, String name, long self) {
        long vtable;
        try {
            vtable = views.view(GcHeap.class, memory, self).vtable();
        } catch (MissingMemoryException e) {
            throw new NativeCallException(self, "IGCHeap::" + name + " called with this = 0x" + Long.toHexString(self)
                    + ", which is not mapped");
        }
        if (vtable != statics.vtable()) {
            throw new NativeCallException(self, String.format("IGCHeap::%s called with this = 0x%x, whose first word 0x%x is not the"
                    + " IGCHeap vtable 0x%x: not a GCHeap", name, self, vtable, statics.vtable()));
        }
    }

    /** The generation tables of every heap: server GC's {@code g_heaps[i]->generation_table}, or the static one. */
    private List<Long> generationTables() {
        if (!statics.server()) {
            return List.of(statics.generationTable());
        }
        int count = memory.readInt(statics.heapCount());
        long array = memory.readPointer(statics.heapArray());
        List<Long> tables = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            tables.add(memory.readPointer(array + 8L * i) + layout.offset("gc_heap", "generation_table"));
        }
        return tables;
    }

    /**
     * {@code gc_heap::descr_generations_to_profiler}: for each heap, generation 4 down to 0, each region of the
     * generation that is not read-only ({@code heap_segment_rw}, {@code heap_segment_next_rw}):
     * {@code fn(context, generation, mem, allocated, reserved)}.
     */
    private void descrGenerations(long fn, long context) {
        for (long table : generationTables()) {
            for (int gen = generations - 1; gen >= 0; gen--) {
                long segment = generation(table, gen).startSegment();
                Set<Long> seen = new HashSet<>();
                while (segment != 0) {
                    if (!seen.add(segment) || seen.size() > MAX_SEGMENTS) {
                        throw new NativeCallException(segment, "the region list of generation " + gen + " does not end");
                    }
                    HeapSegment s = views.view(HeapSegment.class, memory, segment);
                    if ((s.flags() & readonly) == 0) {
                        calls.call(fn, context, gen, s.mem(), s.allocated(), s.reserved());
                    }
                    segment = s.next();
                }
            }
        }
    }

    private Generation.Writable generation(long table, int gen) {
        return views.view(Generation.Writable.class, memory, table + gen * stride);
    }

    /** Heap 0's gen2 entry: where frozen segments are listed (server GC: g_heaps[0]). */
    private Generation.Writable frozenListOwner() {
        return generation(generationTables().get(0), gen2);
    }

    /**
     * {@code GCHeap::RegisterFrozenSegment}: a new {@code heap_segment} (malloc'd) over the segment_info's range,
     * flags read-only, inserted at the head of heap 0's gen2 list ({@code insert_ro_segment}); returns it.
     */
    private long registerFrozenSegment(long info) {
        SegmentInfo i = views.view(SegmentInfo.class, memory, info);
        long base = i.mem();
        long segment = calls.allocate(layout.type("heap_segment").size().orElseThrow());
        HeapSegment.Writable s = views.view(HeapSegment.Writable.class, memory, segment);
        s.mem(base + i.firstObject());
        s.allocated(base + i.allocated());
        s.committed(base + i.commit());
        s.reserved(base + i.reserved());
        s.used(base + i.allocated());
        s.planAllocated(0);
        s.flags(readonly);
        Generation.Writable gen = frozenListOwner();
        if (s.hasHeap()) {
            s.heap(statics.server() ? memory.readPointer(memory.readPointer(statics.heapArray())) : 0);
        }
        s.next(gen.startSegment());
        gen.startSegment(segment);
        return segment;
    }

    /** {@code GCHeap::UnregisterFrozenSegment} ({@code remove_ro_segment}): unlinks the segment from heap 0's gen2 list. */
    private void unregisterFrozenSegment(long segment) {
        Generation.Writable gen = frozenListOwner();
        long previous = 0;
        long current = gen.startSegment();
        int steps = 0;
        while (current != 0 && current != segment) {
            if (++steps > MAX_SEGMENTS) {
                throw new NativeCallException(current, "heap 0's gen2 list does not end");
            }
            previous = current;
            current = views.view(HeapSegment.class, memory, current).next();
        }
        if (current == 0) {
            throw new NativeCallException(segment, "UnregisterFrozenSegment: this segment is not in heap 0's gen2 list");
        }
        long next = views.view(HeapSegment.class, memory, segment).next();
        if (previous == 0) {
            gen.startSegment(next);
        } else {
            views.view(HeapSegment.Writable.class, memory, previous).next(next);
        }
        calls.free(segment);
    }
}
