package io.clrheap.walker.explain;

import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.discovery.DiscoveryEvent;
import io.clrheap.walker.discovery.DiscoveryRecorder;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.WalkLimits;
import io.clrheap.walker.runtime.RuntimeModule;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.symbols.DynamicSymbol;
import io.clrheap.walker.symbols.ModuleFormatException;
import io.clrheap.walker.symbols.PeResourceDirectory;
import io.clrheap.walker.symbols.VersionResource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Narrates the dump path of discovery step by step: how the target was opened (the runtime module, its
 * {@code DotNetRuntimeInfo} or, in a PE image, its version resource, {@code g_dacTable} and {@code g_heap_type}, read here as {@link
 * io.clrheap.walker.runtime.TargetOpener} reads them), then the heap chase itself: {@link HeapDiscovery} runs with a
 * listener, and every read it makes and step it takes ({@code g_gcDacGlobals} → GcDacVars → the heaps → the
 * published field offsets → each heap's generation table → every region's {@code heap_segment} → the thread store →
 * every thread's allocation context → the global one) is rendered ({@link DumpPathSections}). The last section is
 * what that discovery found: what {@code walk} uses, since it runs the same chase.
 *
 * <p>Readability: heap 0 and the first {@value DumpPathSections#DETAILED_THREADS} threads are narrated read by read;
 * further heaps and threads get a line each, unless {@code all} is set. The reads are made either way.
 */
public final class DiscoveryNarrator {

    private final Target target;
    private final Memory memory;
    private final RuntimeLayout layout;
    private final FieldReader reader;
    private final boolean all;
    private final List<ExplainSection> sections = new ArrayList<>();

    public DiscoveryNarrator(Target target, boolean all) {
        this.target = target;
        this.memory = target.memory();
        this.layout = target.layout();
        this.reader = new FieldReader(memory, layout);
        this.all = all;
    }

    public Narration narrate() {
        module();
        SectionBuilder dacTable = dacTable();
        DiscoveryRecorder recorder = new DiscoveryRecorder();
        DiscoveredHeap heap;
        String stopped = "";
        try {
            heap = new HeapDiscovery(target, WalkLimits.DEFAULT, recorder).discover();
        } catch (MissingMemoryException e) { // g_gcDacGlobals itself unreadable: walk stops here too
            heap = new DiscoveredHeap(layout.gc(), List.of(), List.of(), 0, false, List.of());
            stopped = e.getMessage();
        }
        List<DiscoveryEvent> events = recorder.events();
        sections.addAll(new DumpPathSections(target, all, heap).render(events, dacTable));
        sections.add(result(heap, stopped));
        return new Narration(target.describe(), "dump", sections, heap.regionsByAddress(), heap.contexts(), List.of(), events);
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
        s.note("the build: .NET %s, identified by %s; %s GC (g_heap_type, below)", target.identity().map(io.clrheap.layout.BuildIdentity::describe)
                .orElse(target.version()), target.versionSource(), target.gc().id());
        s.note("the layout: %s", target.layoutSource());
        s.note("profile %s", layout.profileName());
        sections.add(s.build());
        if (exports.pe()) {
            versionResource(m);
        }
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

    /**
     * The PE image's version resource, where it has one: the resource directory (data directory 2) → RT_VERSION →
     * name 1 → its first language → the data entry → VS_FIXEDFILEINFO, whose file version names a coreclr.dll's build
     * (it exports no DotNetRuntimeInfo: docs/reference/windows.md section 6).
     */
    private void versionResource(RuntimeModule m) {
        Optional<PeResourceDirectory> directory;
        Optional<PeResourceDirectory.Resource> resource;
        try {
            directory = PeResourceDirectory.inMemory(memory, m.base());
            resource = directory.isPresent() ? directory.get().find(PeResourceDirectory.Key.id(PeResourceDirectory.RT_VERSION),
                    PeResourceDirectory.Key.id(VersionResource.NAME)) : Optional.empty();
        } catch (ModuleFormatException | MissingMemoryException e) {
            SectionBuilder s = new SectionBuilder("version resource", "cannot be read");
            s.note("%s", e.getMessage());
            sections.add(s.build());
            return;
        }
        if (resource.isEmpty()) {
            return;
        }
        PeResourceDirectory.Resource r = resource.get();
        SectionBuilder s = new SectionBuilder("version resource", FieldReader.format("RT_VERSION of %s at 0x%x", m.fileName(), r.address()));
        s.note("the resource directory at 0x%x (data directory 2, 0x%x bytes) → type 16 (RT_VERSION) → name 1 → language 0x%x → "
                + "the data entry at 0x%x: %d bytes at 0x%x", directory.get().address(), directory.get().size(), r.language(), r.entry(),
                r.size(), r.address());
        try {
            Optional<VersionResource> v = VersionResource.inMemory(memory, m.base());
            if (v.isEmpty()) {
                s.note("a VS_VERSIONINFO without VS_FIXEDFILEINFO");
            } else {
                long fixed = v.get().address();
                String source = "PE Format: VS_FIXEDFILEINFO";
                s.add(reader.raw("VS_FIXEDFILEINFO", fixed, "dwSignature", 0, "uint32", 4, false, source,
                        x -> x == VersionResource.SIGNATURE ? "0xfeef04bd: VS_FFI_SIGNATURE" : "not VS_FFI_SIGNATURE"));
                s.add(reader.raw("VS_FIXEDFILEINFO", fixed, "dwFileVersionMS", 8, "uint32", 4, false, source,
                        x -> FieldReader.format("major %d, minor %d", x >>> 16, x & 0xffff)));
                s.add(reader.raw("VS_FIXEDFILEINFO", fixed, "dwFileVersionLS", 12, "uint32", 4, false, source,
                        x -> FieldReader.format("file build %d (patch = build / 100 = %d), revision %d", x >>> 16, (x >>> 16) / 100, x & 0xffff)));
                s.note("file version %s; the build was named by %s", v.get().fileVersion(), target.versionSource());
            }
        } catch (ModuleFormatException | MissingMemoryException e) {
            s.note("VS_FIXEDFILEINFO cannot be read: %s", e.getMessage());
        }
        sections.add(s.build());
    }

    /**
     * The g_dacTable section, begun with how the opener knows the table and {@code g_heap_type} (read here, as the
     * opener reads it); discovery's own entry reads are added to it as they come.
     */
    private SectionBuilder dacTable() {
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
        try {
            long heapType = s.add(DacEntries.entry(reader, target, "g_heap_type", v -> {
                int type = memory.readInt(v);
                return FieldReader.format("→ uint32 %d (%s)", type, type == 2 ? "server" : type == 1 ? "workstation" : "not initialised");
            }));
            s.note("g_heap_type at 0x%x = %d: %s GC (read when the dump was opened); the entries after it are those discovery reads",
                    heapType, memory.readInt(heapType), target.gc().id());
        } catch (MissingMemoryException e) {
            s.note("g_heap_type cannot be read: %s", e.getMessage());
        }
        return s;
    }

    // ---- the result

    private ExplainSection result(DiscoveredHeap heap, String stopped) {
        List<Region> regions = heap.regionsByAddress();
        List<AllocContextInfo> contexts = heap.contexts();
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
        for (Problem p : heap.problems()) {
            s.note("problem: %s", p.describe());
        }
        if (!stopped.isEmpty()) {
            s.note("HeapDiscovery stopped: %s; walk stops there too", stopped);
        } else {
            s.note("HeapDiscovery (what walk uses) made the reads above: these are the regions and contexts it gives the walk");
        }
        return s.build();
    }
}
