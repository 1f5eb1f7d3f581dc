package io.clrheap.walker.explain;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.process.NativeCalls;
import io.clrheap.walker.discovery.DiscoveryEvent;
import io.clrheap.walker.discovery.DiscoveryRecorder;
import io.clrheap.walker.discovery.HeapDiscovered;
import io.clrheap.walker.discovery.InProcessDiscovery;
import io.clrheap.walker.discovery.InProcessRoute;
import io.clrheap.walker.discovery.ProblemRaised;
import io.clrheap.walker.discovery.Read;
import io.clrheap.walker.discovery.RegionAccepted;
import io.clrheap.walker.discovery.SegmentEntered;
import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.heap.WalkLimits;
import io.clrheap.walker.runtime.Target;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Narrates the in-process path, the source article's (docs/reference/clr-layouts.md section 1): a thread → its allocation context →
 * {@code gc_reserved_1} → the {@code GCHeap} → its vtable → slot 69 → the {@code DiagDescrGenerations} call and
 * every callback it made → {@code RegisterFrozenSegment} with the {@code segment_info} written → the dummy segment's
 * {@code next} chain → {@code UnregisterFrozenSegment}.
 *
 * <p>Every read shown is one {@link InProcessDiscovery} made, told through a {@link io.clrheap.walker.discovery.DiscoveryListener}
 * (the threads' sections are those of the dump path it runs first, {@link DumpPathSections}); the calls are those it
 * makes, through a {@link RecordingNativeCalls} that records them. The one read of the narrator's own is the
 * {@code segment_info} discovery wrote, read back while RegisterFrozenSegment holds it.
 */
public final class InProcessNarrator {

    /** Heaps whose callbacks are listed one by one without {@code all}. */
    static final int LISTED_HEAPS = 4;

    private final Target target;
    private final NativeCalls calls;
    private final RuntimeLayout layout;
    private final FieldReader reader;
    private final ReadSteps steps;
    /** The bytes around each read, taken as it was made: the dummy frozen segment is gone when the narration is written. */
    private final Map<Read, HexExcerpt> excerpts = new IdentityHashMap<>();
    private final boolean all;
    private final List<ExplainSection> sections = new ArrayList<>();
    /** The RegisterFrozenSegment call, narrated while its segment_info is still allocated (null until it succeeds). */
    private ExplainSection registered;

    /** {@code target} must read the memory of {@code calls}' session, as for {@link InProcessDiscovery}. */
    public InProcessNarrator(Target target, NativeCalls calls, boolean all) {
        this.target = target;
        this.calls = calls;
        this.layout = target.layout();
        this.reader = new FieldReader(target.memory(), layout);
        this.steps = new ReadSteps(target.memory(), layout, excerpts);
        this.all = all;
    }

    public Narration narrate() {
        sections.add(new SectionBuilder("the in-process path", target.describe())
                .note("a walker inside the process reaches the heap through the GC's own functions: a thread's allocation context → gc_reserved_1 "
                        + "→ GCHeap → vtable slot 69 DiagDescrGenerations, which calls back once per region")
                .note("the calls do not tell the allocation contexts to skip, nor where the ephemeral region's objects end (alloc_allocated): "
                        + "those are read the dump path's way (explain without --in-process narrates it)").build());
        DiscoveryRecorder recorder = new DiscoveryRecorder();
        RecordingNativeCalls recording = new RecordingNativeCalls(calls, record -> {
            if (record.failure().isEmpty() && record.function() == slot(recorder.events(), "RegisterFrozenSegment")) {
                registered = registered(record);
            }
        });
        InProcessDiscovery discovery = new InProcessDiscovery(target, recording, WalkLimits.DEFAULT, event -> {
            if (event instanceof Read r && r.ok()) {
                excerpts.put(r, ReadSteps.excerpt(target.memory(), r));
            }
            recorder.event(event);
        });
        DiscoveredHeap found = discovery.discover();
        List<DiscoveryEvent> events = recorder.events();
        int split = 0;
        while (!(events.get(split) instanceof HeapDiscovered)) {
            split++;
        }
        DiscoveredHeap dumpPath = ((HeapDiscovered) events.get(split)).heap();
        DumpPathSections dump = new DumpPathSections(target, true, dumpPath, excerpts);
        dump.render(events.subList(0, split + 1), new SectionBuilder("g_dacTable", ""));
        if (dump.threadStore() != null) {
            sections.add(dump.threadStore());
        }
        List<DiscoveryEvent> own = events.subList(split + 1, events.size());
        route(own, dump, dumpPath);
        calls(recording.records(), own, found);
        sections.add(result(found, discovery.route(), dumpPath));
        return new Narration(target.describe(), "in-process", sections, found.regionsByAddress(), found.contexts(), recording.records(), events);
    }

    /** The value discovery read of IGCHeap vtable slot {@code name}, or 0 when it read none. */
    private static long slot(List<DiscoveryEvent> events, String name) {
        for (DiscoveryEvent e : events) {
            if (e instanceof Read r && r.ok() && r.site().structure().equals("IGCHeapVtable") && r.site().field().equals(name)) {
                return r.value();
            }
        }
        return 0;
    }

    /**
     * The way to the GCHeap as discovery read it: each thread whose gc_reserved_1 it read (its dump-path section with
     * that read), else {@code g_pGCHeap}; then the GCHeap and its vtable's slots.
     */
    private void route(List<DiscoveryEvent> own, DumpPathSections dump, DiscoveredHeap dumpPath) {
        int shown = 0;
        SectionBuilder open = null;
        String openTitle = "";
        for (DiscoveryEvent e : own) {
            if (e instanceof ProblemRaised p && open != null) {
                open.note("problem: %s", p.problem().describe());
            }
            if (!(e instanceof Read r)) {
                continue;
            }
            String structure = r.site().structure();
            if (structure.equals("heap_segment")) {
                break; // the frozen segments' chain: after the calls
            }
            if (structure.equals("gc_alloc_context")) {
                shown = gcReserved1(r, dump, dumpPath, shown);
                continue;
            }
            String title = switch (structure) {
                case "g_dacTable", "g_pGCHeap" -> "g_pGCHeap";
                case "GCHeap" -> "GCHeap";
                default -> "IGCHeap vtable";
            };
            if (open == null || !openTitle.equals(title)) {
                close(open);
                openTitle = title;
                open = new SectionBuilder(title, FieldReader.format("at 0x%x", r.site().base()));
                switch (title) {
                    case "g_pGCHeap" -> open.where("").note(layout.gc() == GcFlavor.WORKSTATION
                            ? "workstation GC never sets gc_reserved_1 (every thread's is 0): the source article refuses to run here; clrheap takes the GCHeap from g_pGCHeap"
                            : "no thread's gc_reserved_1 is set (no thread has allocated yet): the GCHeap is taken from g_pGCHeap");
                    case "IGCHeap vtable" -> open.note("void DiagDescrGenerations(gen_walk_fn fn, void* context), called with this = the GCHeap; it calls "
                            + "fn(context, generation, range_start, range_end, range_reserved) for every read-write region, heap by heap, generation 4 down to 0");
                    default -> {
                    }
                }
            }
            if (structure.equals("g_pGCHeap")) {
                open.where(FieldReader.format("at 0x%x (g_dacTable[%d])", r.site().base(), DacEntries.index(target, "g_pGCHeap")));
            }
            add(open, r);
        }
        close(open);
    }

    private void close(SectionBuilder done) {
        if (done != null) {
            sections.add(done.build());
        }
    }

    private void add(SectionBuilder s, Read r) {
        if (r.ok()) {
            s.add(steps.step(r));
        } else {
            s.note(ReadSteps.missing(r));
        }
    }

    /** A thread's gc_reserved_1: its section (with the read) and, when set, what it gives; returns the threads shown so far. */
    private int gcReserved1(Read r, DumpPathSections dump, DiscoveredHeap dumpPath, int shown) {
        long location = r.site().base();
        String owner = dumpPath.contexts().stream().filter(c -> c.location() == location).map(AllocContextInfo::owner).findFirst().orElse("thread");
        ExplainSection thread = dump.thread(owner);
        SectionBuilder s = new SectionBuilder(owner, thread == null ? FieldReader.format("allocation context at 0x%x", location) : thread.where());
        if (thread != null) {
            thread.steps().forEach(s::add);
            thread.notes().forEach(n -> s.note("%s", n));
        }
        add(s, r);
        if (r.ok() && r.value() != 0) {
            sections.add(s.build());
            sections.add(new SectionBuilder("gc_reserved_1", FieldReader.format("of %s's allocation context at 0x%x", owner, location))
                    .note("gc_reserved_1 = 0x%x: the GCHeap this thread allocates on (server GC sets it to its heap's GCHeap)", r.value()).build());
            return shown + 1;
        }
        if (shown < 2 || all) {
            sections.add(s.build());
        }
        return shown + 1;
    }

    /** The calls in the order made, the frozen segments' chain after RegisterFrozenSegment. */
    private void calls(List<NativeCallRecord> records, List<DiscoveryEvent> own, DiscoveredHeap found) {
        long descr = slot(own, "DiagDescrGenerations");
        long register = slot(own, "RegisterFrozenSegment");
        long unregister = slot(own, "UnregisterFrozenSegment");
        for (NativeCallRecord r : records) {
            if (r.function() == descr) {
                sections.add(descrGenerations(r, found));
            } else if (r.function() == register) {
                if (r.failure().isEmpty() && registered != null) {
                    sections.add(registered);
                    sections.addAll(frozen(own));
                } else {
                    sections.add(new SectionBuilder("RegisterFrozenSegment", FieldReader.format("call 0x%x", r.function()))
                            .note("the call failed (%s): frozen segments are not found", r.failure()).build());
                }
            } else if (r.function() == unregister) {
                sections.add(new SectionBuilder("UnregisterFrozenSegment", FieldReader.format("call 0x%x(this = 0x%x, segment = 0x%x)",
                        r.function(), r.arguments().get(0), r.arguments().get(1)))
                        .note("slot %d: takes the dummy out of heap 0's gen2 list again, so the process is as it was%s",
                                layout.constant("IGCHeap.UnregisterFrozenSegment.slot"), r.failure().isEmpty() ? "" : "; it failed: " + r.failure())
                        .build());
            }
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

    /** While the dummy frozen segment is registered: the segment_info discovery wrote, read back before the call returns it. */
    private ExplainSection registered(NativeCallRecord r) {
        long info = r.arguments().get(1);
        SectionBuilder s = new SectionBuilder("RegisterFrozenSegment", FieldReader.format("call 0x%x(this = 0x%x, segment_info* 0x%x) = 0x%x",
                r.function(), r.arguments().get(0), info, r.result()));
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
        return s.build();
    }

    /** The dummy's next chain as discovery followed it: the dummy, every frozen segment, and (without --all) the first read-write one. */
    private List<ExplainSection> frozen(List<DiscoveryEvent> own) {
        List<ExplainSection> out = new ArrayList<>();
        SectionBuilder s = null;
        boolean keep = true;
        int n = 0;
        for (DiscoveryEvent e : own) {
            switch (e) {
                case Read r when r.site().structure().equals("heap_segment") -> {
                    if (s == null) {
                        s = new SectionBuilder("the dummy frozen segment", FieldReader.format("at 0x%x", r.site().base()));
                    }
                    add(s, r);
                }
                case SegmentEntered g -> {
                    if (s != null && keep) {
                        out.add(s.build());
                    }
                    n++;
                    s = new SectionBuilder("heap 0 gen2 list after the dummy, heap_segment " + n, FieldReader.format("at 0x%x", g.segment()));
                    keep = all || n <= 1;
                }
                case RegionAccepted a -> {
                    if (s != null) {
                        s.note("frozen segment: objects [0x%x, 0x%x)", a.region().mem(), a.region().end());
                        keep = true;
                    }
                }
                case ProblemRaised p -> {
                    if (s != null) {
                        s.note("problem: %s", p.problem().describe());
                    }
                }
                default -> {
                }
            }
        }
        if (s != null && keep) {
            out.add(s.build());
        }
        return out;
    }

    private ExplainSection result(DiscoveredHeap found, InProcessRoute route, DiscoveredHeap dumpPath) {
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
            s.note("the route InProcessDiscovery took (narrated above): GCHeap 0x%x (%s), vtable 0x%x, DiagDescrGenerations 0x%x, %d callbacks",
                    route.gcHeap(), route.thread().isEmpty() ? "g_pGCHeap" : route.thread() + "'s gc_reserved_1", route.vtable(),
                    route.descrGenerations(), route.ranges());
        }
        found.problems().forEach(p -> s.note("problem: %s", p.describe()));
        List<String> dump = shape(dumpPath.regionsByAddress());
        s.note(dump.equals(shape(regions)) ? "the dump path (which InProcessDiscovery ran first, for the allocation contexts) finds the same regions (heap, kind, mem, end, reserved)"
                : "the dump path finds other regions: " + dump.size() + " against " + regions.size());
        return s.build();
    }

    /** What both paths can tell of a region. */
    private static List<String> shape(List<Region> regions) {
        return regions.stream().map(r -> FieldReader.format("%d %s %x %x %x %b", r.heap(), r.kind().id(), r.mem(), r.end(), r.reserved(), r.ephemeral())).toList();
    }
}
