package io.clrheap.walker.explain;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.symbols.DynamicSymbol;
import io.clrheap.walker.runtime.RuntimeModule;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.heap.WalkLimits;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Narrates the dump path of discovery step by step, reading the memory itself at every step: the runtime module →
 * {@code g_dacTable} → {@code g_gcDacGlobals} → {@code GcDacVars} → the heaps ({@code g_heaps}, or the workstation
 * statics) → the published field offsets → each heap's generation table → every region's {@code heap_segment} →
 * the thread store → every thread's allocation context → the global one. It ends at the regions and contexts
 * {@link HeapDiscovery} finds (it follows the same rules and checks its result against it in the last section).
 *
 * <p>Readability: heap 0 and the first {@value #DETAILED_THREADS} threads are narrated read by read; further heaps
 * and threads get a line each, unless {@code all} is set. The reads are made either way.
 */
public final class DiscoveryNarrator {

    /** Threads narrated read by read without {@code all}. */
    static final int DETAILED_THREADS = 6;
    private static final String[] GC_HEAP_FIELDS = {"alloc_allocated", "ephemeral_heap_segment", "finalize_queue", "generation_table"};

    private final Target target;
    private final Memory memory;
    private final RuntimeLayout layout;
    private final FieldReader reader;
    private final boolean all;
    private final WalkLimits limits;
    private final List<ExplainSection> sections = new ArrayList<>();
    /** The gc_heap reads of each heap, put in front of its generation table when the heap is narrated in full. */
    private final Map<Integer, SectionBuilder> gcHeapSections = new LinkedHashMap<>();

    public DiscoveryNarrator(Target target, boolean all) {
        this.target = target;
        this.memory = target.memory();
        this.layout = target.layout();
        this.reader = new FieldReader(memory, layout);
        this.all = all;
        this.limits = WalkLimits.DEFAULT;
    }

    /** A heap as the narrated reads found it. */
    private record HeapRoots(int index, long gcHeap, long generationTable, long allocAllocated, long ephemeralSegment) {
    }

    public Narration narrate() {
        module();
        long vars = dacTable();
        List<Region> regions = new ArrayList<>();
        List<AllocContextInfo> contexts = new ArrayList<>();
        if (vars != 0) {
            heaps(vars, regions, contexts);
        }
        List<NarratedThread> threads = new ThreadChain(target, reader, limits.maxThreads())
                .read(sections, all ? Integer.MAX_VALUE : DETAILED_THREADS);
        for (NarratedThread t : threads) {
            if (t.allocContext() != 0) {
                contexts.add(new AllocContextInfo(t.owner(), t.allocContext(), t.pointer(), t.limit()));
            }
        }
        globalContext().ifPresent(contexts::add);
        List<AllocContextInfo> plausible = contexts.stream()
                .filter(c -> !c.inUse() || Long.compareUnsigned(c.pointer(), c.limit()) <= 0).toList();
        List<Region> byAddress = regions.stream().sorted(Comparator.comparing(Region::mem, Long::compareUnsigned)).toList();
        sections.add(result(byAddress, plausible));
        return new Narration(target.describe(), "dump", sections, byAddress, plausible, List.of());
    }

    // ---- the runtime module and g_dacTable

    private void module() {
        RuntimeModule m = target.module();
        ModuleExportLookup exports = new ModuleExportLookup(target);
        SectionBuilder s = new SectionBuilder("runtime module", FieldReader.format("%s at 0x%x", m.fileName(), m.base()));
        try {
            if (exports.pe()) {
                s.add(reader.raw("PE image", m.base(), "e_magic", 0, "uint16", 2, false, "PE format: 'MZ'",
                        v -> v == 0x5a4d ? "'MZ': a PE image" : "not a PE image header"));
            } else {
                s.add(reader.raw("ELF image", m.base(), "e_ident[0..3]", 0, "uint32", 4, false, "ELF format: 7f 'E' 'L' 'F'",
                        v -> v == 0x464c457fL ? "7f 'ELF': an ELF image" : "not an ELF header"));
            }
        } catch (MissingMemoryException e) {
            s.note("the module's headers are not in the dump (%s); its symbols were read from %s", e.getMessage(), m.symbolsFrom());
        }
        s.note("path %s", m.path());
        s.note(exports.pe() ? "the module whose PE export directory exports g_dacTable (symbols: %s)"
                : "the mapped file (its file-offset-0 mapping) whose dynamic symbols export g_dacTable (symbols: %s)", m.symbolsFrom());
        s.note("the build: .NET %s, identified by %s; %s GC (g_heap_type, below)", target.version(), target.versionSource(), target.gc().id());
        s.note("profile %s", layout.profileName());
        sections.add(s.build());
        Optional<DynamicSymbol> info = exports.find("DotNetRuntimeInfo");
        if (info.isPresent()) {
            long a = info.get().address();
            SectionBuilder r = new SectionBuilder("DotNetRuntimeInfo", FieldReader.format("at 0x%x (export)", a));
            try {
                r.add(reader.field("DotNetRuntimeInfo", a, "Version", v -> v >= 2 ? "RuntimeVersion is present (version 2 and later)" : "no RuntimeVersion"));
                long major = r.add(reader.element("DotNetRuntimeInfo", a, "RuntimeVersion", 0, v -> "major"));
                long minor = r.add(reader.element("DotNetRuntimeInfo", a, "RuntimeVersion", 1, v -> "minor"));
                long build = r.add(reader.element("DotNetRuntimeInfo", a, "RuntimeVersion", 2, v -> "file build number; patch = build / 100 = " + v / 100));
                r.note("the runtime is %d.%d.%d", major, minor, build / 100);
            } catch (MissingMemoryException e) {
                r.note("cannot be read: %s", e.getMessage());
            }
            sections.add(r.build());
        }
    }

    /** The g_dacTable entries read; returns the GcDacVars address (0 when it cannot be read). */
    private long dacTable() {
        RuntimeModule m = target.module();
        ModuleExportLookup exports = new ModuleExportLookup(target);
        Optional<DynamicSymbol> symbol = exports.find("g_dacTable");
        String how = symbol.map(sym -> (sym.address() == m.dacTable() ? "the export" : FieldReader.format("the export says 0x%x", sym.address()))
                        + (sym.size() > 0 ? FieldReader.format("; st_size %d = %d entries", sym.size(), sym.size() / 8)
                                : FieldReader.format("; a PE export has no size: the build's %d entries", m.dacTableLength())))
                .orElse("the export could not be looked up again");
        SectionBuilder s = new SectionBuilder("g_dacTable", FieldReader.format("at 0x%x (%s)", m.dacTable(), how));
        s.note("each entry is the 8-byte absolute address of a runtime global (dacvars.h order); the indexes are the %s build's",
                target.build().version());
        long vars;
        try {
            long heapType = s.add(DacEntries.entry(reader, target, "g_heap_type", v -> {
                int type = memory.readInt(v);
                return FieldReader.format("→ uint32 %d (%s)", type, type == 2 ? "server" : type == 1 ? "workstation" : "not initialised");
            }));
            long variable = s.add(DacEntries.entry(reader, target, "g_gcDacGlobals",
                    v -> "→ GcDacVars* " + FieldReader.hex(memory.readPointer(v))));
            vars = memory.readPointer(variable);
            s.add(DacEntries.entry(reader, target, "g_pFreeObjectMethodTable",
                    v -> "→ the free object's MethodTable " + FieldReader.hex(memory.readPointer(v))));
            s.note("g_heap_type at 0x%x = %d: %s GC", heapType, memory.readInt(heapType), target.gc().id());
        } catch (MissingMemoryException e) {
            s.note("cannot be read: %s; discovery stops here", e.getMessage());
            sections.add(s.build());
            return 0;
        }
        sections.add(s.build());
        return vars;
    }

    // ---- GcDacVars, heaps, generation tables, regions

    private void heaps(long vars, List<Region> regions, List<AllocContextInfo> contexts) {
        int index = DacEntries.index(target, "g_gcDacGlobals");
        // the entry was read in the g_dacTable section: this read cannot fail where that one did not
        SectionBuilder s = new SectionBuilder("GcDacVars", FieldReader.format("at 0x%x (g_dacTable[%d] g_gcDacGlobals → *0x%x)", vars, index,
                memory.readPointer(target.module().dacTable() + 8L * index)));
        List<HeapRoots> roots;
        long stride;
        long[] generationOffsets;
        try {
            s.add(reader.field("GcDacVars", vars, "major_version_number", v -> v == layout.constant("gc_dac_vars.major_version")
                    ? "major: the layout the profile describes" : "not the major version the profile describes"));
            s.add(reader.field("GcDacVars", vars, "minor_version_number", v -> "minor"));
            stride = s.add(reader.field("GcDacVars", vars, "generation_size", v -> "the generation table's stride"));
            s.add(reader.field("GcDacVars", vars, "total_generation_count", v -> "gen0, gen1, gen2, LOH, POH"));
            s.add(reader.field("GcDacVars", vars, "gc_structures_invalid_cnt", v -> {
                int n = memory.readInt(v);
                return FieldReader.format("→ int32 %d%s", n, n == 0 ? ": not inside a GC" : ": inside a GC; objects may move");
            }));
            long genArray = s.add(reader.field("GcDacVars", vars, "generation_field_offsets",
                    v -> v == 0 ? "not published: the profile's offsets are used" : "→ int32[3] (below)"));
            SectionBuilder offsets = new SectionBuilder("generation_field_offsets", FieldReader.format("int32[3] at 0x%x (published by the GC)", genArray))
                    .note("offsets the GC publishes for the DAC win over the profile's");
            generationOffsets = generationOffsets(genArray, offsets);
            SectionBuilder heapOffsets = new SectionBuilder("gc_heap_field_offsets", "");
            if (layout.gc() == GcFlavor.SERVER) {
                roots = serverHeaps(vars, s, heapOffsets);
            } else {
                roots = workstationHeap(vars, s);
            }
            sections.add(s.build());
            if (genArray != 0) {
                sections.add(offsets.build());
            }
            if (!heapOffsets.build().steps().isEmpty()) {
                sections.add(heapOffsets.build());
            }
        } catch (MissingMemoryException e) {
            s.note("cannot be read: %s; no heap is found", e.getMessage());
            sections.add(s.build());
            return;
        }
        Set<Long> seen = new HashSet<>();
        int[] budget = {limits.maxRegions()};
        for (HeapRoots heap : roots) {
            boolean detail = all || heap.index() == 0;
            List<ExplainSection> heapSections = new ArrayList<>();
            List<Region> found = new ArrayList<>();
            AllocContextInfo gen0 = generations(heap, stride, generationOffsets, seen, budget, heapSections, found);
            contexts.add(gen0);
            regions.addAll(found);
            if (detail) {
                sections.addAll(heapSections);
            } else {
                sections.add(summary(heap, found));
            }
        }
        dropOverlapping(regions);
    }

    private long[] generationOffsets(long array, SectionBuilder offsets) {
        long[] profile = {layout.offset("generation", "allocation_context"), layout.offset("generation", "start_segment")};
        if (array == 0) {
            return profile;
        }
        String[] names = {"allocation_context", "start_segment"};
        long[] published = new long[2];
        for (int i = 0; i < 2; i++) {
            int f = i;
            published[i] = offsets.add(reader.raw("int32[] generation_field_offsets", array, "[" + i + "] " + names[i], 4L * i, "int32", 4, true,
                    "published", v -> compared(v, profile[f], layout.field("generation", names[f]).provenance())));
        }
        offsets.add(reader.raw("int32[] generation_field_offsets", array, "[2] allocation_start", 8, "int32", 4, true, "published",
                v -> v == -1 ? "−1: regions (no allocation_start)" : "segments: generations start inside segments"));
        return published;
    }

    private static String compared(long published, long profile, io.clrheap.layout.Provenance provenance) {
        return published == profile ? FieldReader.format("+0x%x, as the profile says [%s]", published, FieldReader.source(provenance))
                : FieldReader.format("+0x%x; the profile says +0x%x: the published offset is used", published, profile);
    }

    private List<HeapRoots> serverHeaps(long vars, SectionBuilder s, SectionBuilder offsets) {
        long nHeaps = s.add(reader.field("GcDacVars", vars, "n_heaps", v -> "→ int32 " + memory.readInt(v) + " heaps"));
        long gHeaps = s.add(reader.field("GcDacVars", vars, "g_heaps", v -> "→ gc_heap** " + FieldReader.hex(memory.readPointer(v))));
        long array = s.add(reader.field("GcDacVars", vars, "gc_heap_field_offsets", v -> "→ int32[] (below)"));
        int count = memory.readInt(nHeaps);
        if (count < 1 || count > limits.maxHeaps()) {
            s.note("n_heaps is %d, outside 1..%d: no heap is walked", count, limits.maxHeaps());
            return List.of();
        }
        List<String> order = layout.dacFieldOrder().get("gc_heap");
        offsets.where(FieldReader.format("int32[%d] at 0x%x (published by the GC, in dac_gcheap_fields.h order)", order.size(), array));
        long[] heapOffsets = new long[GC_HEAP_FIELDS.length];
        for (int f = 0; f < GC_HEAP_FIELDS.length; f++) {
            String name = GC_HEAP_FIELDS[f];
            int index = order.indexOf(name);
            long profile = layout.offset("gc_heap", name);
            heapOffsets[f] = offsets.add(reader.raw("int32[] gc_heap_field_offsets", array, "[" + index + "] " + name, 4L * index, "int32", 4, true,
                    "published", v -> v < 0 ? "this build publishes no such field: no heap is walked"
                            : compared(v, profile, layout.field("gc_heap", name).provenance())));
            if (heapOffsets[f] < 0) {
                return List.of();
            }
        }
        long heapArray = memory.readPointer(gHeaps);
        s.note("%d heaps: gc_heap* g_heaps[%d] at 0x%x; each heap's fields at gc_heap + the published offsets", count, count, heapArray);
        List<HeapRoots> heaps = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int heapIndex = i;
            SectionBuilder h = new SectionBuilder("heap " + i + ": gc_heap", "");
            try {
                long heap = h.add(reader.raw("gc_heap*[] g_heaps", heapArray, "g_heaps[" + i + "]", 8L * i, "pointer", 8, false,
                        "g_heaps (GcDacVars)", v -> "heap " + heapIndex + "'s gc_heap"));
                long allocAllocated = h.add(reader.raw("gc_heap", heap, "alloc_allocated", heapOffsets[0], "pointer", 8, false,
                        "published", v -> "end of the ephemeral region's objects"));
                long ephemeral = h.add(reader.raw("gc_heap", heap, "ephemeral_heap_segment", heapOffsets[1], "pointer", 8, false,
                        "published", v -> "the region gen0 allocates in"));
                h.note("generation_table = gc_heap 0x%x + 0x%x = 0x%x", heap, heapOffsets[3], heap + heapOffsets[3]);
                heaps.add(new HeapRoots(i, heap, heap + heapOffsets[3], allocAllocated, ephemeral));
                gcHeapSections.put(i, h.where(FieldReader.format("at 0x%x (g_heaps[%d])", heap, i)));
            } catch (MissingMemoryException e) {
                h.note("cannot be read (%s); this heap is not walked", e.getMessage());
                gcHeapSections.put(i, h);
            }
        }
        return heaps;
    }

    private List<HeapRoots> workstationHeap(long vars, SectionBuilder s) {
        long table = s.add(reader.field("GcDacVars", vars, "generation_table", v -> "&gc_heap::generation_table[0] (a static under workstation GC)"));
        long allocVar = s.add(reader.field("GcDacVars", vars, "alloc_allocated", v -> "&gc_heap::alloc_allocated → " + FieldReader.hex(memory.readPointer(v))));
        long ephVar = s.add(reader.field("GcDacVars", vars, "ephemeral_heap_segment",
                v -> "&gc_heap::ephemeral_heap_segment → " + FieldReader.hex(memory.readPointer(v))));
        s.note("workstation GC: one heap, whose gc_heap members are statics GcDacVars points at (n_heaps and g_heaps are null)");
        SectionBuilder h = new SectionBuilder("heap 0: gc_heap statics", "");
        long allocAllocated = h.add(reader.raw("uint8_t* gc_heap::alloc_allocated", allocVar, "(value)", 0, "pointer", 8, false,
                "GcDacVars.alloc_allocated", v -> "end of the ephemeral region's objects"));
        long ephemeral = h.add(reader.raw("heap_segment* gc_heap::ephemeral_heap_segment", ephVar, "(value)", 0, "pointer", 8, false,
                "GcDacVars.ephemeral_heap_segment", v -> "the region gen0 allocates in"));
        gcHeapSections.put(0, h.where(FieldReader.format("statics at 0x%x and 0x%x", allocVar, ephVar)));
        return List.of(new HeapRoots(0, 0, table, allocAllocated, ephemeral));
    }

    /** Heap {@code heap}'s generation table and region lists; returns its gen0 allocation context. */
    private AllocContextInfo generations(HeapRoots heap, long stride, long[] offsets, Set<Long> seen, int[] budget,
                                         List<ExplainSection> out, List<Region> found) {
        SectionBuilder gcHeap = gcHeapSections.get(heap.index());
        if (gcHeap != null) {
            out.add(gcHeap.build());
        }
        SectionBuilder t = new SectionBuilder("heap " + heap.index() + ": generation table",
                FieldReader.format("at 0x%x, stride 0x%x (GcDacVars.generation_size)", heap.generationTable(), stride));
        long[] starts = new long[5];
        AllocContextInfo gen0 = new AllocContextInfo("heap " + heap.index() + " gen0", heap.generationTable() + offsets[0], 0, 0);
        for (int gen = 0; gen < 5; gen++) {
            long generation = heap.generationTable() + gen * stride;
            int g = gen;
            try {
                starts[gen] = t.add(reader.raw("generation", generation, "start_segment", offsets[1], "pointer", 8, false,
                        startSegmentSource(offsets[1]), v -> FieldReader.format("generation_table[%d] (%s): first heap_segment", g, SegmentKind.ofGeneration(g).id())));
                if (gen == 0) {
                    long context = generation + offsets[0];
                    long ptr = t.add(reader.field("gc_alloc_context", context, "alloc_ptr", v -> "the heap's gen0 allocation context"));
                    long limit = t.add(reader.field("gc_alloc_context", context, "alloc_limit", v -> ptr == 0 ? "not in use" : "its limit"));
                    gen0 = new AllocContextInfo("heap " + heap.index() + " gen0", context, ptr, limit);
                }
            } catch (MissingMemoryException e) {
                t.note("generation %d cannot be read: %s", gen, e.getMessage());
                starts[gen] = 0;
            }
        }
        t.note("lists are followed gen2 (frozen segments first), gen1, gen0, LOH, POH: the order SOS's eeheap lists them");
        out.add(t.build());
        for (int gen : new int[] {2, 1, 0, 3, 4}) {
            chain(heap, gen, starts[gen], seen, budget, out, found);
        }
        return gen0;
    }

    private String startSegmentSource(long published) {
        long profile = layout.offset("generation", "start_segment");
        return published == profile ? FieldReader.source(layout.field("generation", "start_segment").provenance())
                : FieldReader.format("published (the profile says 0x%x)", profile);
    }

    private void chain(HeapRoots heap, int gen, long first, Set<Long> seen, int[] budget, List<ExplainSection> out, List<Region> found) {
        long segment = first;
        Set<Long> inChain = new HashSet<>();
        int n = 0;
        String from = FieldReader.format("generation_table[%d].start_segment", gen);
        long readonly = layout.constant("heap_segment.flags.readonly");
        while (segment != 0) {
            String title = FieldReader.format("heap %d %s list, heap_segment %d", heap.index(), SegmentKind.ofGeneration(gen).id(), ++n);
            if (!inChain.add(segment)) {
                out.add(new SectionBuilder(title, FieldReader.format("at 0x%x", segment))
                        .note("this heap_segment comes again in the same list; the chain is cut here").build());
                return;
            }
            if (!seen.add(segment)) {
                out.add(new SectionBuilder(title, FieldReader.format("at 0x%x", segment))
                        .note("already listed from another generation's list (segments mode); so is the rest").build());
                return;
            }
            if (budget[0]-- <= 0) {
                out.add(new SectionBuilder(title, FieldReader.format("at 0x%x", segment))
                        .note("more than %d regions; the rest are not followed", limits.maxRegions()).build());
                return;
            }
            SectionBuilder s = new SectionBuilder(title, FieldReader.format("at 0x%x (%s)", segment, from));
            long next;
            try {
                long allocated = s.add(reader.field("heap_segment", segment, "allocated", v -> "end of the objects"));
                long committed = s.add(reader.field("heap_segment", segment, "committed", v -> "end of the committed memory"));
                long reserved = s.add(reader.field("heap_segment", segment, "reserved", v -> "end of the reservation"));
                long mem = s.add(reader.field("heap_segment", segment, "mem", v -> "the first object"));
                long flags = s.add(reader.field("heap_segment", segment, "flags", this::flags));
                next = s.add(reader.field("heap_segment", segment, "next", v -> v == 0 ? "the end of the list" : "the next heap_segment of this list"));
                boolean ephemeral = segment == heap.ephemeralSegment();
                SegmentKind kind = (flags & readonly) != 0 ? SegmentKind.FROZEN : SegmentKind.ofGeneration(gen);
                long end = ephemeral ? heap.allocAllocated() : allocated;
                Region region = new Region(heap.index(), kind, segment, mem, end, allocated, committed, reserved, flags, ephemeral);
                if (ephemeral) {
                    s.note("this is ephemeral_heap_segment: its objects end at alloc_allocated 0x%x, not at allocated 0x%x", end, allocated);
                }
                if (allocated == 0 && !ephemeral) {
                    s.note("allocated 0 marks a freed region: nothing to walk");
                } else if (Long.compareUnsigned(end, mem) < 0 || Long.compareUnsigned(end, committed) > 0 || Long.compareUnsigned(committed, reserved) > 0) {
                    s.note("mem 0x%x, end 0x%x, committed 0x%x, reserved 0x%x are out of order: the region is not walked", mem, end, committed, reserved);
                } else {
                    found.add(region);
                    s.note("%s region: objects [0x%x, 0x%x), %,d bytes", kind.id(), mem, end, end - mem);
                }
            } catch (MissingMemoryException e) {
                s.note("heap_segment cannot be read (%s); the chain is cut here", e.getMessage());
                out.add(s.build());
                return;
            }
            out.add(s.build());
            from = FieldReader.format("next of 0x%x", segment);
            segment = next;
        }
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

    /** One line for a heap narrated without --all. */
    private ExplainSection summary(HeapRoots heap, List<Region> found) {
        Map<String, Integer> kinds = new LinkedHashMap<>();
        found.forEach(r -> kinds.merge(r.kind().id(), 1, Integer::sum));
        List<String> parts = new ArrayList<>();
        kinds.forEach((k, v) -> parts.add(v + " " + k));
        return new SectionBuilder("heap " + heap.index(), FieldReader.format("gc_heap 0x%x", heap.gcHeap()))
                .note("generation table 0x%x, alloc_allocated 0x%x, %d regions (%s); --all shows every read", heap.generationTable(),
                        heap.allocAllocated(), found.size(), String.join(", ", parts)).build();
    }

    /** Regions whose object ranges overlap an earlier one are corrupt and not walked, as HeapDiscovery drops them. */
    private void dropOverlapping(List<Region> regions) {
        List<Region> sorted = new ArrayList<>(regions);
        sorted.sort((a, b) -> Long.compareUnsigned(a.mem(), b.mem()));
        long reach = 0;
        Region previous = null;
        for (Region r : sorted) {
            if (previous != null && Long.compareUnsigned(r.mem(), reach) < 0 && r.end() != r.mem()) {
                regions.remove(r);
                sections.add(new SectionBuilder("overlapping region", r.toString())
                        .note("its objects overlap those of %s; the region is not walked", previous).build());
                continue;
            }
            if (Long.compareUnsigned(r.end(), reach) > 0) {
                reach = r.end();
                previous = r;
            }
        }
    }

    // ---- the global context

    private Optional<AllocContextInfo> globalContext() {
        int index = DacEntries.index(target, "g_global_alloc_context");
        String type = layout.findType("ee_alloc_context").isPresent() ? "ee_alloc_context" : "gc_alloc_context";
        long inner = type.equals("ee_alloc_context") ? layout.offset("ee_alloc_context", "m_GCAllocContext") : 0;
        SectionBuilder s = new SectionBuilder("global allocation context", "");
        try {
            long variable = s.add(DacEntries.entry(reader, target, "g_global_alloc_context", v -> "&g_global_alloc_context, a" + (inner == 0 ? " " : "n ") + type));
            long location = variable + inner;
            if (inner != 0) {
                s.note("its gc_alloc_context is ee_alloc_context.m_GCAllocContext at +0x%x = 0x%x", inner, location);
            }
            long ptr = s.add(reader.field("gc_alloc_context", location, "alloc_ptr", v -> v == 0 ? "0: not in use" : "in use"));
            long limit = s.add(reader.field("gc_alloc_context", location, "alloc_limit", v -> "its limit"));
            sections.add(s.where(FieldReader.format("g_dacTable[%d] → 0x%x", index, variable)).build());
            return Optional.of(new AllocContextInfo("global", location, ptr, limit));
        } catch (MissingMemoryException e) {
            s.note("cannot be read: %s", e.getMessage());
            sections.add(s.build());
            return Optional.empty();
        }
    }

    // ---- the result

    private ExplainSection result(List<Region> regions, List<AllocContextInfo> contexts) {
        SectionBuilder s = new SectionBuilder("result", FieldReader.format("%d regions, %d allocation contexts in use", regions.size(),
                contexts.stream().filter(AllocContextInfo::inUse).count()));
        for (Region r : regions) {
            s.note("heap %d %-6s [0x%x, 0x%x) %,d bytes%s", r.heap(), r.kind().id(), r.mem(), r.end(), r.objectBytes(), r.ephemeral() ? ", ephemeral" : "");
        }
        for (AllocContextInfo c : contexts) {
            if (c.inUse()) {
                s.note("context of %s: skip [0x%x, 0x%x)", c.owner(), c.pointer(), c.limit() + layout.constant("alloc_context.tail_reserve"));
            }
        }
        List<Region> discovered = new HeapDiscovery(target, limits).discover().regionsByAddress();
        s.note(discovered.equals(regions) ? FieldReader.format("HeapDiscovery (what walk uses) finds the same %d regions", regions.size())
                : FieldReader.format("HeapDiscovery finds %d regions, these reads %d: they differ (%s)", discovered.size(), regions.size(),
                        firstDifference(discovered, regions)));
        return s.build();
    }

    private static String firstDifference(List<Region> a, List<Region> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            if (!a.get(i).equals(b.get(i))) {
                return "first: " + a.get(i) + " vs " + b.get(i);
            }
        }
        return a.size() > b.size() ? "HeapDiscovery also has " + a.get(b.size()) : "these reads also have " + b.get(a.size());
    }
}
