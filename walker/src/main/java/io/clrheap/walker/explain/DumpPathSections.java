package io.clrheap.walker.explain;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.walker.discovery.ContextEntered;
import io.clrheap.walker.discovery.ContextFound;
import io.clrheap.walker.discovery.DiscoveryEvent;
import io.clrheap.walker.discovery.GcDacVarsFound;
import io.clrheap.walker.discovery.GcHeapFound;
import io.clrheap.walker.discovery.GenerationListEntered;
import io.clrheap.walker.discovery.GenerationTableEntered;
import io.clrheap.walker.discovery.HeapDiscovered;
import io.clrheap.walker.discovery.HeapEntered;
import io.clrheap.walker.discovery.OffsetsPublished;
import io.clrheap.walker.discovery.ProblemRaised;
import io.clrheap.walker.discovery.Read;
import io.clrheap.walker.discovery.RegionAccepted;
import io.clrheap.walker.discovery.RegionRejected;
import io.clrheap.walker.discovery.Rejection;
import io.clrheap.walker.discovery.SegmentEntered;
import io.clrheap.walker.discovery.ThreadEntered;
import io.clrheap.walker.discovery.ThreadIdentified;
import io.clrheap.walker.discovery.ThreadStoreEntered;
import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.heap.SubHeap;
import io.clrheap.walker.runtime.Target;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders the events of one {@link io.clrheap.walker.discovery.HeapDiscovery} run as the sections {@code clrheap
 * explain} prints: GcDacVars, the published offsets, each heap's gc_heap and generation table, every heap_segment of
 * its lists, the thread store, each thread, the global allocation context. Every read shown is one discovery made.
 *
 * <p>Readability: heap 0 and the first {@value #DETAILED_THREADS} threads are shown read by read; further heaps and
 * threads get a line each, unless {@code all} is set. The reads were made either way.
 */
final class DumpPathSections {

    /** Threads shown read by read without {@code all}. */
    static final int DETAILED_THREADS = 6;

    private final RuntimeLayout layout;
    private final boolean all;
    private final DiscoveredHeap found;
    private final ReadSteps steps;
    private final List<ExplainSection> out = new ArrayList<>();
    private final Map<String, ExplainSection> threads = new LinkedHashMap<>();
    private ExplainSection threadStore;

    private SectionBuilder current;
    private boolean shown;
    private Stage stage = Stage.OTHER;
    private Read gcDacGlobals;
    // the heap being read
    private boolean heapShown;
    private long gcHeap;
    private long generationTable;
    private long stride;
    private int listGeneration;
    private int segmentNumber;
    private String segmentFrom = "";
    // the thread being read, and those told in a line
    private int threadCount;
    private String owner = "";
    private AllocContextInfo threadContext;
    private final List<String> further = new ArrayList<>();

    /** What the open section is about: a thread's and the store's are kept for the in-process narration. */
    private enum Stage { OTHER, STORE, THREAD }

    /** {@code found} is what the discovery returned (the summaries of heaps not shown read by read come from it). */
    DumpPathSections(Target target, boolean all, DiscoveredHeap found) {
        this(target, all, found, Map.of());
    }

    /** {@code taken}: the bytes around reads, taken as they were made (a live process's memory changes after). */
    DumpPathSections(Target target, boolean all, DiscoveredHeap found, Map<Read, HexExcerpt> taken) {
        this.layout = target.layout();
        this.all = all;
        this.found = found;
        this.steps = new ReadSteps(target.memory(), layout, taken);
    }

    /** The sections of {@code events}; discovery's first reads (the g_dacTable entries) go to {@code first}. */
    List<ExplainSection> render(List<DiscoveryEvent> events, SectionBuilder first) {
        current = first;
        shown = true;
        for (DiscoveryEvent e : events) {
            switch (e) {
                case Read r -> read(r);
                case GcDacVarsFound g -> open("GcDacVars", gcDacGlobals == null ? FieldReader.format("at 0x%x", g.address())
                        : FieldReader.format("at 0x%x (%s → *0x%x)", g.address(), gcDacGlobals.site().name().replace(" (value)", ""),
                        gcDacGlobals.site().base()), true, Stage.OTHER);
                case OffsetsPublished o -> open(o.array(), FieldReader.format("int32[%d] at 0x%x (published by the GC%s)", o.count(), o.address(),
                        o.array().equals("gc_heap_field_offsets") ? ", in dac_gcheap_fields.h order" : ""), true, Stage.OTHER)
                        .note("offsets the GC publishes for the DAC win over the profile's");
                case HeapEntered h -> heap(h.heap());
                case GenerationTableEntered t -> generationTable(t);
                case GenerationListEntered l -> {
                    listGeneration = l.generation();
                    segmentNumber = 0;
                    segmentFrom = FieldReader.format("generation_table[%d].start_segment", l.generation());
                }
                case SegmentEntered s -> {
                    open(segmentTitle(s.heap()), FieldReader.format("at 0x%x (%s)", s.segment(), segmentFrom), heapShown, Stage.OTHER);
                    segmentFrom = FieldReader.format("next of 0x%x", s.segment());
                }
                case RegionAccepted a -> accepted(a.region());
                case RegionRejected r -> rejected(r);
                case ThreadStoreEntered t -> open("thread store", "", true, Stage.STORE);
                case ThreadEntered t -> {
                    threadCount++;
                    open("thread", FieldReader.format("Thread at 0x%x (m_Link 0x%x − 0x%x)", t.thread(), t.link(), t.link() - t.thread()),
                            all || threadCount <= DETAILED_THREADS, Stage.THREAD);
                    owner = FieldReader.format("Thread 0x%x", t.thread());
                    threadContext = null;
                }
                case ThreadIdentified t -> {
                    owner = t.owner();
                    current.title(owner);
                }
                case ContextEntered c -> {
                    if (c.owner().equals("global")) {
                        close();
                        furtherThreads();
                        open("global allocation context", "", true, Stage.OTHER);
                    }
                }
                case ContextFound c -> context(c.context());
                case ProblemRaised p -> {
                    if (shown && current != null) {
                        current.note("problem: %s", p.problem().describe());
                    }
                }
                case GcHeapFound g -> {
                    // the in-process path's, which InProcessNarrator renders
                }
                case HeapDiscovered d -> close();
            }
        }
        close();
        furtherThreads();
        return out;
    }

    /** The thread store's section (null when discovery did not reach it). */
    ExplainSection threadStore() {
        return threadStore;
    }

    /** The section of the thread named {@code owner} ({@code thread 1 (tid 30152)}), if it was shown. */
    ExplainSection thread(String owner) {
        return threads.get(owner);
    }

    private SectionBuilder open(String title, String where, boolean show, Stage kind) {
        close();
        current = new SectionBuilder(title, where);
        shown = show;
        stage = kind;
        return current;
    }

    private void close() {
        if (current == null) {
            return;
        }
        ExplainSection s = current.build();
        if (stage == Stage.THREAD) {
            if (shown) {
                threads.put(owner, s);
            } else {
                further.add(owner + (threadContext != null && threadContext.inUse()
                        ? FieldReader.format(" [0x%x, 0x%x)", threadContext.pointer(), threadContext.limit()) : ""));
            }
        } else if (stage == Stage.STORE) {
            threadStore = s;
        }
        if (shown) {
            out.add(s);
        }
        current = null;
    }

    private void read(Read r) {
        String structure = r.site().structure();
        if (structure.equals("g_gcDacGlobals")) {
            gcDacGlobals = r;
        } else if (structure.equals("g_heaps") && r.site().field().startsWith("[")) {
            gcHeap = r.value();
            if (shown && r.ok()) {
                current.where(FieldReader.format("at 0x%x (g_heaps%s)", r.value(), r.site().field()));
            }
        }
        if (!shown) {
            return;
        }
        if (!r.ok()) {
            current.note(ReadSteps.missing(r));
            return;
        }
        if (structure.equals("generation")) {
            int generation = (int) ((r.site().base() - generationTable) / Math.max(1, stride));
            current.add(steps.step(r, FieldReader.format("generation_table[%d] (%s): first heap_segment", generation,
                    SegmentKind.ofGeneration(Math.clamp(generation, 0, 4)).id())));
            return;
        }
        current.add(steps.step(r));
        if (structure.equals("ThreadStore::s_pThreadStore")) {
            current.where(FieldReader.format("ThreadStore at 0x%x (g_dacTable → ThreadStore::s_pThreadStore at 0x%x)", r.value(), r.site().base()));
        } else if (structure.equals("g_dacTable") && r.site().field().endsWith("g_global_alloc_context")) {
            current.where(FieldReader.format("g_dacTable%s → 0x%x", r.site().field().substring(0, r.site().field().indexOf(']') + 1), r.value()));
        }
    }

    private void heap(int index) {
        heapShown = all || index == 0;
        if (!heapShown) {
            close();
            out.add(summary(index));
        }
        boolean server = layout.gc() == GcFlavor.SERVER;
        SectionBuilder s = open("heap " + index + (server ? ": gc_heap" : ": gc_heap statics"), "", heapShown, Stage.OTHER);
        if (!server) {
            s.where("statics GcDacVars points at").note("workstation GC: one heap, whose gc_heap members are statics GcDacVars points at "
                    + "(n_heaps and g_heaps are null)");
        }
    }

    /** One line for a heap not shown read by read: what discovery found of it. */
    private ExplainSection summary(int index) {
        SubHeap heap = found.heaps().stream().filter(h -> h.index() == index).findFirst().orElse(null);
        if (heap == null) {
            return new SectionBuilder("heap " + index, "").note("its gc_heap cannot be read: it is not walked (see the problems in the result)").build();
        }
        Map<String, Integer> kinds = new LinkedHashMap<>();
        heap.regions().forEach(r -> kinds.merge(r.kind().id(), 1, Integer::sum));
        List<String> parts = new ArrayList<>();
        kinds.forEach((k, v) -> parts.add(v + " " + k));
        return new SectionBuilder("heap " + index, FieldReader.format("gc_heap 0x%x", heap.gcHeap()))
                .note("generation table 0x%x, alloc_allocated 0x%x, %d regions (%s); --all shows every read", heap.generationTable(),
                        heap.allocAllocated(), heap.regions().size(), String.join(", ", parts)).build();
    }

    private void generationTable(GenerationTableEntered t) {
        if (shown && layout.gc() == GcFlavor.SERVER && gcHeap != 0) {
            current.note("generation_table = gc_heap 0x%x + 0x%x (the published offset) = 0x%x", gcHeap, t.address() - gcHeap, t.address());
        }
        generationTable = t.address();
        stride = t.stride();
        open("heap " + t.heap() + ": generation table", FieldReader.format("at 0x%x, stride 0x%x (GcDacVars.generation_size)", t.address(), t.stride()),
                heapShown, Stage.OTHER)
                .note("lists are followed gen2 (frozen segments first), gen1, gen0, LOH, POH: the order SOS's eeheap lists them");
    }

    private String segmentTitle(int heap) {
        return FieldReader.format("heap %d %s list, heap_segment %d", heap, SegmentKind.ofGeneration(listGeneration).id(), ++segmentNumber);
    }

    private void accepted(Region r) {
        if (!shown) {
            return;
        }
        if (r.ephemeral()) {
            current.note("this is ephemeral_heap_segment: its objects end at alloc_allocated 0x%x, not at allocated 0x%x", r.end(), r.allocated());
        }
        current.note("%s region: objects [0x%x, 0x%x), %,d bytes", r.kind().id(), r.mem(), r.end(), r.objectBytes());
    }

    private void rejected(RegionRejected r) {
        switch (r.reason()) {
            case FREED -> {
                if (shown) {
                    current.note(r.reason().text());
                }
            }
            case REPEATED, ALREADY_LISTED, OVER_BUDGET -> {
                SectionBuilder s = open(segmentTitle(r.heap()), FieldReader.format("at 0x%x (%s)", r.segment(), segmentFrom), heapShown, Stage.OTHER);
                if (r.reason() == Rejection.ALREADY_LISTED) {
                    s.note(r.reason().text());
                }
            }
            case OVERLAPPING -> open("overlapping region", FieldReader.format("heap %d %s, heap_segment 0x%x", r.heap(), r.kind().id(), r.segment()),
                    true, Stage.OTHER);
            case BAD_BOUNDS, UNREADABLE -> {
                // the problem raised next says what was found
            }
        }
    }

    private void context(AllocContextInfo c) {
        if (stage == Stage.THREAD) {
            threadContext = c;
        }
        if (!shown) {
            return;
        }
        if (stage == Stage.THREAD) {
            threadContextNote(c);
        } else if (c.owner().equals("global") && layout.findType("ee_alloc_context").isPresent()) {
            long inner = layout.offset("ee_alloc_context", "m_GCAllocContext");
            current.note("g_global_alloc_context is an ee_alloc_context: its gc_alloc_context is m_GCAllocContext at +0x%x = 0x%x", inner, c.location());
        }
        if (c.inUse()) {
            long tail = layout.constant("alloc_context.tail_reserve");
            current.note("the walk skips [alloc_ptr, alloc_limit + %d) = [0x%x, 0x%x): no object there yet", tail, c.pointer(), c.limit() + tail);
        }
    }

    /** How the thread's gc_alloc_context was located: inline in .NET 8, through RuntimeThreadLocals in 9 and 10. */
    private void threadContextNote(AllocContextInfo c) {
        if (layout.type("Thread").findField("m_alloc_context").isPresent()) {
            current.note("the allocation context is inline: Thread.m_alloc_context at +0x%x = 0x%x [%s]", layout.offset("Thread", "m_alloc_context"),
                    c.location(), FieldReader.source(layout.field("Thread", "m_alloc_context").provenance()));
            return;
        }
        String contextType = layout.field("RuntimeThreadLocals", "AllocContext").type().element();
        long inner = contextType.equals("ee_alloc_context") ? layout.offset("ee_alloc_context", "m_GCAllocContext") : 0;
        current.note("RuntimeThreadLocals.AllocContext at +0x%x is a%s %s%s: the gc_alloc_context is at 0x%x",
                layout.offset("RuntimeThreadLocals", "AllocContext"), contextType.startsWith("e") ? "n" : "", contextType,
                inner == 0 ? "" : FieldReader.format(" (its m_GCAllocContext at +0x%x)", inner), c.location());
    }

    private void furtherThreads() {
        if (further.isEmpty()) {
            return;
        }
        close();
        out.add(new SectionBuilder("further threads", further.size() + " more (--all narrates them)").note(String.join(", ", further)).build());
        further.clear();
    }
}
