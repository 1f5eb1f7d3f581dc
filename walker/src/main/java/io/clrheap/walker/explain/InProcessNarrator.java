package io.clrheap.walker.explain;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.process.NativeCalls;
import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.discovery.InProcessDiscovery;
import io.clrheap.walker.discovery.InProcessRoute;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.heap.WalkLimits;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Narrates the in-process path, the source article's (docs/reference/clr-layouts.md section 1): a thread → its allocation context →
 * {@code gc_reserved_1} → the {@code GCHeap} → its vtable → slot 69 → the {@code DiagDescrGenerations} call and
 * every callback it made → {@code RegisterFrozenSegment} with the {@code segment_info} written → the dummy segment's
 * {@code next} chain → {@code UnregisterFrozenSegment}.
 *
 * <p>The reads up to the vtable are the narrator's own; the calls are those {@link InProcessDiscovery} makes, through
 * a {@link RecordingNativeCalls} that records them and lets the narrator read the dummy frozen segment while it is
 * registered. The route the narrator read must be the one the discovery took ({@link InProcessDiscovery#route()});
 * the last section says whether it is, and whether the dump path finds the same regions.
 */
public final class InProcessNarrator {

    /** Heaps whose callbacks are listed one by one without {@code all}. */
    static final int LISTED_HEAPS = 4;

    private final Target target;
    private final NativeCalls calls;
    private final Memory memory;
    private final RuntimeLayout layout;
    private final FieldReader reader;
    private final boolean all;
    private final List<ExplainSection> sections = new ArrayList<>();
    private final List<ExplainSection> frozenSections = new ArrayList<>();

    /** {@code target} must read the memory of {@code calls}' session, as for {@link InProcessDiscovery}. */
    public InProcessNarrator(Target target, NativeCalls calls, boolean all) {
        this.target = target;
        this.calls = calls;
        this.memory = target.memory();
        this.layout = target.layout();
        this.reader = new FieldReader(memory, layout);
        this.all = all;
    }

    public Narration narrate() {
        sections.add(new SectionBuilder("the in-process path", target.describe())
                .note("a walker inside the process reaches the heap through the GC's own functions: a thread's allocation context → gc_reserved_1 "
                        + "→ GCHeap → vtable slot 69 DiagDescrGenerations, which calls back once per region")
                .note("the calls do not tell the allocation contexts to skip, nor where the ephemeral region's objects end (alloc_allocated): "
                        + "those are read the dump path's way (explain without --in-process narrates it)").build());
        long[] heapOrigin = gcHeap();
        long gcHeap = heapOrigin[0];
        long[] functions = gcHeap == 0 ? null : vtable(gcHeap);
        RecordingNativeCalls recording = new RecordingNativeCalls(calls, record -> {
            if (functions != null && record.function() == functions[1] && record.failure().isEmpty()) {
                registered(record);
            }
        });
        InProcessDiscovery discovery = new InProcessDiscovery(target, recording);
        DiscoveredHeap found = discovery.discover();
        List<NativeCallRecord> records = recording.records();
        if (functions != null) {
            for (NativeCallRecord r : records) {
                if (r.function() == functions[0]) {
                    sections.add(descrGenerations(r, found));
                } else if (r.function() == functions[1]) {
                    if (r.failure().isEmpty()) {
                        sections.addAll(frozenSections);
                    } else {
                        sections.add(new SectionBuilder("RegisterFrozenSegment", FieldReader.format("call 0x%x", r.function()))
                                .note("the call failed (%s): frozen segments are not found", r.failure()).build());
                    }
                } else if (r.function() == functions[2]) {
                    sections.add(new SectionBuilder("UnregisterFrozenSegment", FieldReader.format("call 0x%x(this = 0x%x, segment = 0x%x)",
                            r.function(), r.arguments().get(0), r.arguments().get(1)))
                            .note("slot %d: takes the dummy out of heap 0's gen2 list again, so the process is as it was%s",
                                    layout.constant("IGCHeap.UnregisterFrozenSegment.slot"), r.failure().isEmpty() ? "" : "; it failed: " + r.failure())
                            .build());
                }
            }
        }
        sections.add(result(found, discovery.route(), heapOrigin));
        return new Narration(target.describe(), "in-process", sections, found.regionsByAddress(), found.contexts(), records);
    }

    /**
     * {@code {GCHeap, allocation context}}: the first thread whose gc_reserved_1 is set; else (workstation GC)
     * {@code g_pGCHeap} and 0.
     */
    private long[] gcHeap() {
        List<ExplainSection> threadSections = new ArrayList<>();
        List<NarratedThread> threads = new ThreadChain(target, reader, WalkLimits.DEFAULT.maxThreads()).read(threadSections, 0);
        sections.addAll(threadSections);
        int shown = 0;
        for (NarratedThread t : threads) {
            if (t.allocContext() == 0) {
                continue;
            }
            if (t.gcReserved1() != 0) {
                sections.add(t.section());
                sections.add(new SectionBuilder("gc_reserved_1", FieldReader.format("of %s's allocation context at 0x%x", t.owner(), t.allocContext()))
                        .note("gc_reserved_1 = 0x%x: the GCHeap this thread allocates on (server GC sets it to its heap's GCHeap)", t.gcReserved1()).build());
                return new long[] {t.gcReserved1(), t.allocContext()};
            }
            if (shown++ < 2 || all) {
                sections.add(t.section());
            }
        }
        SectionBuilder s = new SectionBuilder("g_pGCHeap", "");
        s.note(layout.gc() == GcFlavor.WORKSTATION
                ? "workstation GC never sets gc_reserved_1 (every thread's is 0): the source article refuses to run here; clrheap takes the GCHeap from g_pGCHeap"
                : "no thread's gc_reserved_1 is set (no thread has allocated yet): the GCHeap is taken from g_pGCHeap");
        try {
            long variable = s.add(DacEntries.entry(reader, target, "g_pGCHeap", v -> "&g_pGCHeap, which holds GCHeap* " + FieldReader.hex(memory.readPointer(v))));
            long heap = s.add(reader.raw("IGCHeap* g_pGCHeap", variable, "(value)", 0, "pointer", 8, false, "g_dacTable", v -> "the GCHeap"));
            sections.add(s.where(FieldReader.format("at 0x%x (g_dacTable[%d])", variable, DacEntries.index(target, "g_pGCHeap"))).build());
            return new long[] {heap, 0};
        } catch (MissingMemoryException e) {
            s.note("cannot be read: %s; nothing is found", e.getMessage());
            sections.add(s.build());
            return new long[] {0, 0};
        }
    }

    /** The GCHeap and its vtable's three slots: {DiagDescrGenerations, RegisterFrozenSegment, UnregisterFrozenSegment}; null if unreadable. */
    private long[] vtable(long gcHeap) {
        SectionBuilder h = new SectionBuilder("GCHeap", FieldReader.format("at 0x%x", gcHeap));
        try {
            long vtable = h.add(reader.field("GCHeap", gcHeap, "vtable", v -> "word 0: the IGCHeap vtable (IGCHeap has no data members)"));
            if (layout.type("GCHeap").findField("pGenGCHeap").isPresent()) {
                h.add(reader.field("GCHeap", gcHeap, "pGenGCHeap", v -> "server GC: this GCHeap's gc_heap (one of g_heaps)"));
            }
            sections.add(h.build());
            SectionBuilder v = new SectionBuilder("IGCHeap vtable", FieldReader.format("at 0x%x", vtable));
            long slotSize = layout.constant("IGCHeap.slot_size");
            long descr = v.add(reader.field("IGCHeapVtable", vtable, "DiagDescrGenerations", f -> FieldReader.format("slot %d (0x%x / %d): the code of DiagDescrGenerations",
                    layout.offset("IGCHeapVtable", "DiagDescrGenerations") / slotSize, layout.offset("IGCHeapVtable", "DiagDescrGenerations"), slotSize)));
            long register = v.add(reader.field("IGCHeapVtable", vtable, "RegisterFrozenSegment", f -> FieldReader.format("slot %d: RegisterFrozenSegment",
                    layout.offset("IGCHeapVtable", "RegisterFrozenSegment") / slotSize)));
            long unregister = v.add(reader.field("IGCHeapVtable", vtable, "UnregisterFrozenSegment", f -> FieldReader.format("slot %d: UnregisterFrozenSegment",
                    layout.offset("IGCHeapVtable", "UnregisterFrozenSegment") / slotSize)));
            v.note("void DiagDescrGenerations(gen_walk_fn fn, void* context), called with this = the GCHeap; it calls "
                    + "fn(context, generation, range_start, range_end, range_reserved) for every read-write region, heap by heap, generation 4 down to 0");
            sections.add(v.build());
            return new long[] {descr, register, unregister};
        } catch (MissingMemoryException e) {
            h.note("the GCHeap or its vtable cannot be read: %s", e.getMessage());
            sections.add(h.build());
            return null;
        }
    }

    /** The call and every callback it made, each with the heap it belongs to (a heap ends where the generation goes up again). */
    private ExplainSection descrGenerations(NativeCallRecord r, DiscoveredHeap found) {
        SectionBuilder s = new SectionBuilder("DiagDescrGenerations", FieldReader.format("call 0x%x(this = 0x%x, fn = 0x%x, context = 0x%x)",
                r.function(), r.arguments().get(0), r.arguments().get(1), r.arguments().get(2)));
        s.note("%d callbacks fn(context, generation, range_start = mem, range_end = allocated, range_reserved = reserved):", r.callbacks().size());
        int heap = 0;
        int last = Integer.MAX_VALUE;
        int hidden = 0;
        for (List<Long> args : r.callbacks()) {
            int generation = args.get(1).intValue();
            if (generation > last) {
                heap++;
            }
            last = generation;
            if (!all && heap >= LISTED_HEAPS) {
                hidden++;
                continue;
            }
            long mem = args.get(2);
            long allocated = args.get(3);
            Region region = found.regionsByAddress().stream().filter(g -> g.mem() == mem && g.kind() != SegmentKind.FROZEN).findFirst().orElse(null);
            String lag = region != null && region.ephemeral() && region.end() != allocated
                    ? FieldReader.format("  allocated lags: the walk ends it at alloc_allocated 0x%x (dump path)", region.end()) : "";
            s.note("heap %d gen%d  mem 0x%x  allocated 0x%x  reserved 0x%x%s", heap, generation, mem, allocated, args.get(4), lag);
        }
        if (hidden > 0) {
            s.note("%d more callbacks for heaps %d and up (--all lists them)", hidden, LISTED_HEAPS);
        }
        if (r.callbacks().stream().noneMatch(a -> found.regionsByAddress().stream().anyMatch(g -> g.mem() == a.get(2) && g.ephemeral() && g.end() != a.get(3)))) {
            s.note("no reported range lags behind its heap's alloc_allocated here");
        }
        s.note("read-only (frozen) segments are not reported: heap_segment_rw skips them");
        if (!r.failure().isEmpty()) {
            s.note("the call failed: %s", r.failure());
        }
        return s.build();
    }

    /** Runs while the dummy frozen segment is registered: the segment_info given, the dummy, and its next chain. */
    private void registered(NativeCallRecord r) {
        long info = r.arguments().get(1);
        long dummy = r.result();
        SectionBuilder s = new SectionBuilder("RegisterFrozenSegment", FieldReader.format("call 0x%x(this = 0x%x, segment_info* 0x%x) = 0x%x",
                r.function(), r.arguments().get(0), info, dummy));
        try {
            s.add(reader.field("segment_info", info, "pvMem", v -> "0: an empty dummy, as GC._RegisterFrozenSegment(0, 0) passes"));
            s.add(reader.field("segment_info", info, "ibFirstObject", v -> "the object header size"));
            s.add(reader.field("segment_info", info, "ibAllocated", v -> "nothing allocated"));
            s.add(reader.field("segment_info", info, "ibCommit", v -> "nothing committed"));
            s.add(reader.field("segment_info", info, "ibReserved", v -> "nothing reserved"));
            s.note("slot %d: the GC puts a new read-only heap_segment at the head of heap 0's gen2 list and returns it; its next is the first "
                    + "segment that was there: every frozen segment comes first in that list", layout.constant("IGCHeap.RegisterFrozenSegment.slot"));
        } catch (MissingMemoryException e) {
            s.note("the segment_info cannot be read: %s", e.getMessage());
        }
        frozenSections.add(s.build());
        long readonly = layout.constant("heap_segment.flags.readonly");
        long segment = dummy;
        Set<Long> seen = new HashSet<>();
        int n = 0;
        while (segment != 0 && seen.add(segment) && seen.size() <= WalkLimits.DEFAULT.maxRegions()) {
            boolean isDummy = segment == dummy;
            SectionBuilder h = new SectionBuilder(isDummy ? "the dummy frozen segment" : "heap 0 gen2 list after the dummy, heap_segment " + ++n,
                    FieldReader.format("at 0x%x", segment));
            try {
                long mem = h.add(reader.field("heap_segment", segment, "mem", v -> isDummy ? "pvMem + ibFirstObject" : "the first object"));
                long allocated = h.add(reader.field("heap_segment", segment, "allocated", v -> "end of the objects"));
                long flags = h.add(reader.field("heap_segment", segment, "flags",
                        v -> (v & readonly) != 0 ? "readonly: a frozen segment" : "read-write: a gen2 region, already reported by the call"));
                long next = h.add(reader.field("heap_segment", segment, "next", v -> v == 0 ? "the end of the list" : "the next segment of heap 0's gen2 list"));
                if (!isDummy && (flags & readonly) != 0) {
                    h.note("frozen segment: objects [0x%x, 0x%x)", mem, allocated);
                }
                if (all || isDummy || (flags & readonly) != 0 || n <= 1) {
                    frozenSections.add(h.build());
                }
                segment = next;
            } catch (MissingMemoryException e) {
                h.note("cannot be read: %s; the list is cut here", e.getMessage());
                frozenSections.add(h.build());
                return;
            }
        }
    }

    private ExplainSection result(DiscoveredHeap found, InProcessRoute route, long[] origin) {
        List<Region> regions = found.regionsByAddress();
        SectionBuilder s = new SectionBuilder("result", FieldReader.format("%d regions", regions.size()));
        for (Region r : regions) {
            s.note("heap %d %-6s [0x%x, 0x%x) reserved 0x%x%s", r.heap(), r.kind().id(), r.mem(), r.end(), r.reserved(), r.ephemeral() ? ", ephemeral" : "");
        }
        for (AllocContextInfo c : found.contexts()) {
            if (c.inUse()) {
                s.note("context of %s (read the dump path's way): skip [0x%x, 0x%x)", c.owner(), c.pointer(), c.limit() + layout.constant("alloc_context.tail_reserve"));
            }
        }
        if (route == null) {
            s.note("InProcessDiscovery found no GCHeap");
        } else {
            boolean same = route.gcHeap() == origin[0] && route.allocContext() == origin[1];
            s.note(same ? FieldReader.format("InProcessDiscovery took the same route: GCHeap 0x%x, vtable 0x%x, DiagDescrGenerations 0x%x, %d callbacks",
                    route.gcHeap(), route.vtable(), route.descrGenerations(), route.ranges())
                    : FieldReader.format("InProcessDiscovery took another route: GCHeap 0x%x from context 0x%x", route.gcHeap(), route.allocContext()));
        }
        found.problems().forEach(p -> s.note("problem: %s", p.describe()));
        List<String> dump = shape(new HeapDiscovery(target).discover().regionsByAddress());
        s.note(dump.equals(shape(regions)) ? "the dump path finds the same regions (heap, kind, mem, end, reserved)"
                : "the dump path finds other regions: " + dump.size() + " against " + regions.size());
        return s.build();
    }

    /** What both paths can tell of a region. */
    private static List<String> shape(List<Region> regions) {
        return regions.stream().map(r -> FieldReader.format("%d %s %x %x %x %b", r.heap(), r.kind().id(), r.mem(), r.end(), r.reserved(), r.ephemeral())).toList();
    }
}
