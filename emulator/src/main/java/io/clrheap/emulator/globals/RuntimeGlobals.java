package io.clrheap.emulator.globals;

import io.clrheap.emulator.module.ModuleImageBuilder;

import io.clrheap.emulator.module.FileVersion;
import io.clrheap.emulator.module.ModuleImage;
import io.clrheap.layout.DacTable;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeBuild;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.view.DotNetRuntimeInfo;
import io.clrheap.layout.view.GcDacVars;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.clrheap.emulator.types.TypeSystem;
import io.clrheap.emulator.gc.Heap;
import io.clrheap.emulator.gc.GcStatics;
import io.clrheap.emulator.process.Process;
import io.clrheap.emulator.process.ProcessLayout;

/**
 * The runtime module and its globals: {@code g_dacTable} with the build's length, each entry the address of a
 * variable in the module's .bss (the named ones where the build has them, a variable of its own for every other
 * entry); {@code GcDacVars} and the variables it points to; {@code DotNetRuntimeInfo} where the build exports it (not on
 * Windows: a coreclr.dll's build is named by its version resource, which the PE image carries), and the
 * build's sccsid string {@code @(#)Version <file version> @Commit: <commit>} in .data — all of the build the layout is of
 * ({@link RuntimeLayout#primaryBuild()}: {@code ProfileLoader.load(version, gc, build)}), so that a reader names it exactly.
 * The module is laid out first and mapped into memory, so that the rest of the build writes into its variables.
 *
 * <p>Long because the module's variables are laid out in one place, in one order that the answer keys' addresses depend
 * on (and that a Windows build keeps as the Linux one has it, its longer table last); split, the order would be spread
 * over several files.
 */
public final class RuntimeGlobals {

    /**
     * The versions whose emulated Linux module exports DotNetRuntimeInfo: the real .NET 8 and 10 processes of the
     * profiles are single-file hosts, which export it; the .NET 9 one runs libcoreclr.so, which does not
     * (docs/reference/discovery.md section 2). The Windows module is coreclr.dll, which exports it in no version.
     */
    private static final java.util.Set<RuntimeVersion> EXPORTS_RUNTIME_INFO = java.util.EnumSet.of(RuntimeVersion.NET8, RuntimeVersion.NET10);
    /** GcDacVars minor versions (docs/reference/discovery.md section 5). */
    private static final Map<RuntimeVersion, Integer> GC_DAC_MINOR = Map.of(RuntimeVersion.NET8, 1, RuntimeVersion.NET9, 1, RuntimeVersion.NET10, 4);

    private final Process process;
    private final RuntimeLayout layout;
    private final RuntimeBuild build;
    private final Map<String, Long> variables = new HashMap<>();
    private final long dacTable;
    private final long gcDacVars;
    private final long runtimeInfo;
    private final long vtable;
    /** The GCHeap g_pGCHeap points to (written with the process globals). */
    private long globalGcHeap;
    private final ModuleImage image;
    /** The standalone GC's module (segments mode), where the GC's statics are; null for the runtime's own GC. */
    private final ModuleImage gcImage;
    /** The standalone segments GC's layout, or null for the runtime's own regions GC. */
    private final io.clrheap.layout.SegmentsGcLayout segments;
    private final long[] unnamed;
    /** Where the sccsid string {@code @(#)Version …} is. */
    private final long sccsid;
    /** The descriptor's pointer-data globals, slot 1 onwards, and the g_dacTable variable each stands for. */
    private static final List<String> DESCRIPTOR_POINTERS = List.of("ThreadStore", "FreeObjectMethodTable");
    private static final Map<String, String> DESCRIPTOR_VARIABLES = Map.of(
            "ThreadStore", "ThreadStore::s_pThreadStore", "FreeObjectMethodTable", "g_pFreeObjectMethodTable");
    private long descriptor;
    private long descriptorJson;
    private long descriptorPointers;
    private byte[] descriptorBytes;

    /** The g_dacTable entry of LoadedImageLayout's vtable (vptr_list.h; the net9 profile). */
    public static final String LOADED_IMAGE_LAYOUT_VTABLE = "LoadedImageLayout__vtAddr";

    /** PEAssembly's virtual functions: AddRef and Release (peassembly.h, STDMETHOD_). */
    private static final int PE_ASSEMBLY_VIRTUALS = 2;

    public RuntimeGlobals(Process process) {
        this.process = process;
        this.layout = process.layout();
        this.build = layout.primaryBuild();
        var module = process.module();
        this.segments = process.segments();
        // the GC's statics: in the runtime module for its own GC, in the standalone GC's module else (the real dumps)
        ModuleImageBuilder gcModule = segments == null ? module
                : new ModuleImageBuilder(module.path().substring(0, module.path().lastIndexOf('/') + 1) + segments.module(), ProcessLayout.GC_MODULE_BASE);
        DacTable table = build.dacTable();
        // A Windows build's table is longer than the Linux one's (Process#sizing): so that every variable keeps the
        // address it has on Linux (one answer key serves both), the Linux table's room stays where it is, unused, and
        // the longer table, with the variables of its extra unnamed entries, comes after everything else
        int linuxSlots = process.sizing().primaryBuild().dacTable().length();
        boolean tableLast = table.length() > linuxSlots;
        long inPlace = module.reserveBss(8L * (tableLast ? linuxSlots : table.length()), 16);
        long gcDacVarsSize = layout.type("GcDacVars").size().orElseThrow();
        gcDacVars = module.reserveBss(gcDacVarsSize, 16);
        // one variable per named global, sized for what it holds
        for (String name : table.entries().keySet()) {
            long size = switch (name) {
                case "g_global_alloc_context" -> layout.findType("ee_alloc_context").isPresent()
                        ? layout.type("ee_alloc_context").size().orElseThrow() : layout.type("gc_alloc_context").size().orElseThrow();
                case "g_pPredefinedArrayTypes" -> 8 * layout.constant("element_type.max");
                default -> 8;
            };
            variables.put(name, name.equals("g_gcDacGlobals") ? module.reserveBss(8, 8) : module.reserveBss(size, 8));
        }
        // the GC's own statics that GcDacVars points to
        for (String name : List.of("build_variant", "built_with_svr", "max_gen", "gc_structures_invalid_cnt", "n_heaps", "g_heaps",
                "alloc_allocated", "ephemeral_heap_segment", "finalize_queue", "dynamic_adaptation_mode", "bookkeeping_start")) {
            variables.put("gc:" + name, gcModule.reserveBss(16, 8));
        }
        // and the rest of what the build publishes there, each sized as the GC declares it
        for (GcStatic v : publishedStatics()) {
            variables.put("gc:" + v.name(), gcModule.reserveBss(v.size(), 8));
        }
        // every g_dacTable entry without a name in the profile still points at a variable of its own
        unnamed = new long[table.length()];
        java.util.Set<Integer> namedIndexes = new java.util.HashSet<>();
        table.entries().values().forEach(e -> namedIndexes.add(e.index()));
        int inPlaceUnnamed = (tableLast ? linuxSlots : table.length()) - namedIndexes.size();
        List<Integer> later = new java.util.ArrayList<>();
        for (int i = 0, reserved = 0; i < table.length(); i++) {
            if (!namedIndexes.contains(i)) {
                if (reserved++ < inPlaceUnnamed) {
                    unnamed[i] = module.reserveBss(8, 8);
                } else {
                    later.add(i);
                }
            }
        }
        variables.put("gc:generation_table", gcModule.reserveBss(5 * generationSize(), 16));
        variables.put("gc:handle_table_map", gcModule.reserveBss(layout.type("HandleTableMap").size().orElseThrow(), 16));
        for (int i : later) {
            unnamed[i] = module.reserveBss(8, 8);
        }
        // and a 0 word after it, as after the real Windows tables (docs/reference/windows.md section 3: how a reader
        // without the export's size finds its length)
        dacTable = tableLast ? module.reserveBss(8L * (table.length() + 1), 16) : inPlace;
        variables.put("gc:gc_heap_field_offsets", gcModule.reserveData(4L * layout.dacFieldOrder().get("gc_heap").size(), 8));
        variables.put("gc:generation_field_offsets", gcModule.reserveData(12, 8));
        // the IGCHeap vtable (in relro data) and the code its slots point to
        long slots = vtableSlots();
        vtable = module.reserveData(8 * slots, 16);
        long code = module.reserveText(GcStatics.CODE_STRIDE * slots, 16);
        variables.put("code", code);
        // DotNetRuntimeInfo: a Windows coreclr.dll does not export it (runtimeinfo.cpp exports it under HOST_UNIX only;
        // docs/reference/windows.md section 6), but its room stays, so that what follows keeps its Linux address
        boolean reservesRuntimeInfo = EXPORTS_RUNTIME_INFO.contains(layout.version());
        long runtimeInfoRoom = reservesRuntimeInfo ? module.reserveData(layout.type("DotNetRuntimeInfo").size().orElseThrow(), 16) : 0;
        boolean exportsRuntimeInfo = reservesRuntimeInfo && module.platform() != io.clrheap.emulator.module.Platform.WINDOWS;
        runtimeInfo = exportsRuntimeInfo ? runtimeInfoRoom : 0;
        // .NET 9+: the cDAC contract descriptor, its JSON and pointer data in .data
        if (layout.findType("ContractDescriptor").isPresent()) {
            byte[] json = ContractDescriptorBuilder.bytes(ContractDescriptorBuilder.json(layout, DESCRIPTOR_POINTERS));
            // room for the longer of this JSON and the Linux build's (Process#sizing): the Windows one says other offsets,
            // and .data must end where it ends on Linux for the variables after it to keep their addresses
            int room = process.sizing().findType("ContractDescriptor").isPresent()
                    ? Math.max(json.length, ContractDescriptorBuilder.bytes(ContractDescriptorBuilder.json(process.sizing(), DESCRIPTOR_POINTERS)).length)
                    : json.length;
            descriptorJson = module.reserveData(room + 1, 8);
            descriptorPointers = module.reserveData(8L * (DESCRIPTOR_POINTERS.size() + 1), 8);
            descriptor = module.reserveData(layout.type("ContractDescriptor").size().orElseThrow(), 16);
            this.descriptorBytes = json;
            module.export("DotNetRuntimeContractDescriptor", descriptor, layout.type("ContractDescriptor").size().orElseThrow());
        }
        // PEAssembly's vtable, in relro data as in the real module (AddRef and Release are virtual: PEASM); no reader
        // follows its slots and nothing in the emulated process calls them
        variables.put("vtable:PEAssembly", module.reserveData(8L * PE_ASSEMBLY_VIRTUALS, 16));
        // LoadedImageLayout's vtable: the DAC knows a layout by it (a VPTR class), so where the profile has its g_dacTable
        // entry (9.0.1) that entry's variable is it; elsewhere a vtable of its own in relro data, which no reader follows
        if (!variables.containsKey(LOADED_IMAGE_LAYOUT_VTABLE)) {
            variables.put(LOADED_IMAGE_LAYOUT_VTABLE, module.reserveData(8, 16));
        }
        // the build's sccsid string, a static char[] of the runtime in .data, last so that nothing before it moves
        sccsid = module.initializedData(sccsid(build), 8);
        module.export("g_dacTable", dacTable, 8L * table.length());
        if (exportsRuntimeInfo) {
            module.export("DotNetRuntimeInfo", runtimeInfo, layout.type("DotNetRuntimeInfo").size().orElseThrow());
        }
        if (module.platform() == io.clrheap.emulator.module.Platform.WINDOWS) {
            // what the real coreclr.dll exports besides, and its PDB's CodeView record: after everything else, so that
            // every variable above keeps the address it has in the Linux build
            CoreclrDllExports.addTo(module, layout.version(), module.exportedNames());
            module.codeView(io.clrheap.emulator.module.CodeViewRecord.forBuild("coreclr.pdb", fileVersion(build)));
            module.versionResource(fileVersion(build));
        }
        image = module.build();
        process.memory().reserve("runtime module " + image.path(), image.base(), image.end() - image.base());
        byte[] bytes = image.mappedBytes();
        process.memory().write(image.base(), bytes, 0, bytes.length);
        if (segments != null) {
            gcImage = gcModule.build();
            process.memory().reserve("GC module " + gcImage.path(), gcImage.base(), gcImage.end() - gcImage.base());
            byte[] gcBytes = gcImage.mappedBytes();
            process.memory().write(gcImage.base(), gcBytes, 0, gcBytes.length);
        } else {
            gcImage = null;
        }
        writeTableAndStatics(table);
    }

    private void writeTableAndStatics(DacTable table) {
        var memory = process.memory();
        Map<Integer, String> named = new HashMap<>();
        table.entries().values().forEach(e -> named.put(e.index(), e.name()));
        for (int i = 0; i < table.length(); i++) {
            String name = named.get(i);
            memory.writePointer(dacTable + 8L * i, name != null ? variables.get(name) : unnamed[i]);
        }
        for (int slot = 0; slot < vtableSlots(); slot++) {
            memory.writePointer(vtable + 8L * slot, variables.get("code") + GcStatics.CODE_STRIDE * slot);
        }
        memory.writePointer(variable("g_gcDacGlobals"), gcDacVars);
        memory.writeInt(variable("g_heap_type"), (int) (process.server() ? layout.constant("gc_heap_type.server") : layout.constant("gc_heap_type.workstation")));
        if (descriptor != 0) {
            memory.write(descriptorJson, descriptorBytes, 0, descriptorBytes.length);
            for (int i = 0; i < DESCRIPTOR_POINTERS.size(); i++) {
                memory.writePointer(descriptorPointers + 8L * (i + 1), variables.get(DESCRIPTOR_VARIABLES.get(DESCRIPTOR_POINTERS.get(i))));
            }
            var d = process.views().view(io.clrheap.layout.view.ContractDescriptor.Writable.class, memory, descriptor);
            d.magic(layout.constant("contract_descriptor.magic"));
            d.flags(1); // bit 0 always set; 64-bit pointers
            d.descriptorSize(descriptorBytes.length);
            d.descriptor(descriptorJson);
            d.pointerDataCount(DESCRIPTOR_POINTERS.size() + 1);
            d.pointerData(descriptorPointers);
        }
        if (runtimeInfo != 0) {
            DotNetRuntimeInfo.Writable info = process.views().view(DotNetRuntimeInfo.Writable.class, memory, runtimeInfo);
            byte[] signature = "DotNetRuntimeInfo\0".getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < signature.length; i++) {
                info.signature(i, signature[i]);
            }
            info.version((int) layout.constant("runtime_info.runtime_version_min_version"));
            FileVersion v = fileVersion(build);
            int[] parts = {v.major(), v.minor(), v.build(), v.revision()};
            for (int i = 0; i < 4; i++) {
                info.runtimeVersion(i, parts[i]);
            }
        }
    }

    /**
     * The four-part file version of {@code build} ({@code 9.0.725.31616} for 9.0.7), as its profile or build file records
     * it: what the module's sccsid string, DotNetRuntimeInfo.RuntimeVersion and a minidump's VS_FIXEDFILEINFO say.
     *
     * @throws IllegalStateException when the profile does not record it (the emulator names no build it cannot name exactly)
     */
    public static FileVersion fileVersion(RuntimeBuild build) {
        if (build.fileVersion().isEmpty()) {
            throw new IllegalStateException("the profile of build " + build.version() + " records no file version (\"fileVersion\"): "
                    + "the emulated runtime cannot say which build it is");
        }
        FileVersion v = FileVersion.parse(build.fileVersion());
        if (!io.clrheap.layout.BuildIdentity.ofFileVersion(build.fileVersion(), "").version().equals(build.version())) {
            throw new IllegalStateException("the profile of build " + build.version() + " records file version " + build.fileVersion()
                    + ", which is another build's");
        }
        return v;
    }

    /**
     * The sccsid string of {@code build}, NUL-terminated: {@code @(#)Version 9.0.725.31616 @Commit: 3c298d9f…}, as every
     * CoreCLR binary carries it (eng/native/version: {@code static char sccsid[]}); without the commit part when the
     * profile records none.
     */
    public static byte[] sccsid(RuntimeBuild build) {
        String text = "@(#)Version " + fileVersion(build) + (build.commit().isEmpty() ? "" : " @Commit: " + build.commit());
        return (text + "\0").getBytes(StandardCharsets.US_ASCII);
    }

    /** Where the module's sccsid string is. */
    public long sccsidAddress() {
        return sccsid;
    }

    public ModuleImage image() {
        return image;
    }

    /** The standalone GC's module image (segments mode), or empty for the runtime's own GC. */
    public java.util.Optional<ModuleImage> gcImage() {
        return java.util.Optional.ofNullable(gcImage);
    }

    /** The generation table's stride: the standalone GC's (264) or the runtime's own GC's. */
    public long generationSize() {
        return segments != null ? segments.generationSize() : layout.type("generation").size().orElseThrow();
    }

    public long variable(String dacName) {
        Long v = variables.get(dacName);
        if (v == null) {
            throw new IllegalStateException("no variable " + dacName + " in the " + build.version() + " module");
        }
        return v;
    }

    public long gcStatic(String name) {
        return variable("gc:" + name);
    }

    public long vtable() {
        return vtable;
    }

    /** The vtable's slots: DiagDescrGenerations and 20 more (RegisterFrozenSegment and UnregisterFrozenSegment among them). */
    private int vtableSlots() {
        return (int) layout.constant("IGCHeap.DiagDescrGenerations.slot") + 20;
    }

    /** What the emulated GC's own functions read: its code, vtable and statics. */
    public GcStatics gcStatics(long workstationGenerationTable) {
        return process.server()
                ? new GcStatics(vtable, variables.get("code"), vtableSlots(), gcStatic("n_heaps"), gcStatic("g_heaps"), 0, globalGcHeap, segments != null)
                : new GcStatics(vtable, variables.get("code"), vtableSlots(), 0, 0, workstationGenerationTable, globalGcHeap, segments != null);
    }

    long gcDacVars() {
        return gcDacVars;
    }

    /**
     * Fills the globals once the heaps and threads exist: GcDacVars (docs/reference/discovery.md section 5: server or workstation
     * fields, the offset arrays), the MethodTable globals, g_pGCHeap, the GC range and the global allocation context.
     */
    public void writeProcessGlobals(TypeSystem types, List<Heap> heaps, long heapArray, long handleTableMap) {
        var memory = process.memory();
        memory.writePointer(variable("g_pFreeObjectMethodTable"), types.freeMethodTable());
        memory.writePointer(variable("g_pObjectClass"), types.objectMethodTable());
        memory.writePointer(variable("g_pStringClass"), types.stringMethodTable());
        memory.writePointer(variable("g_pArrayClass"), types.arrayMethodTable());
        // g_pPredefinedArrayTypes[ELEMENT_TYPE_OBJECT]: System.Object[] (GetUsefulGlobals' ArrayMethodTable)
        memory.writePointer(variable("g_pPredefinedArrayTypes") + 8 * layout.constant("element_type.object"), types.objectArrayMethodTable());
        memory.writePointer(variable("g_lowest_address"), ProcessLayout.GC_RESERVE);
        memory.writePointer(variable("g_highest_address"), ProcessLayout.GC_RESERVE + ProcessLayout.GC_RESERVE_SIZE);
        // g_card_table: the bookkeeping area's card table, translated by g_lowest_address (the real dumps)
        memory.writePointer(variable("g_card_table"), process.bookkeeping().translatedCardTable());
        // g_pGCHeap: the GCHeap the runtime created first; under server GC its pGenGCHeap is 0 (the real dumps)
        globalGcHeap = process.allocateNative("GCHeap", 16);
        process.views().view(io.clrheap.layout.view.GcHeap.Writable.class, memory, globalGcHeap).vtable(vtable);
        memory.writePointer(variable("g_pGCHeap"), globalGcHeap);
        writeGcDacVars(heaps, heapArray, handleTableMap);
    }

    /** A GC static GcDacVars points to (beyond those a DAC-less walker needs), its size and its value outside a GC. */
    private record GcStatic(String name, long size, long value) {
    }

    /**
     * The statics GcDacVars points to besides the walker's own, as the build publishes them (gc.cpp PopulateDacVars):
     * under workstation GC every per-heap variable (the real 9.0.1 workstation dump leaves only
     * saved_sweep_ephemeral_seg and _start NULL), under server GC only the global ones (the per-heap ones are
     * reached through g_heaps and gc_heap_field_offsets). Each holds what a process outside a GC holds: the
     * background GC state c_gc_state_free, heap_analyze_success TRUE, empty free-region lists, zero elsewhere.
     */
    private List<GcStatic> publishedStatics() {
        long word = 8;
        long freeList = layout.type("region_free_list").size().orElseThrow();
        long kinds = layout.constant("gc.free_region_kinds");
        // a segments GC has no free-region lists: it publishes none (the real libclrgc.so dumps)
        List<GcStatic> global = segments != null
                ? List.of(new GcStatic("current_c_gc_state", 4, layout.constant("gc.c_gc_state_free")))
                : List.of(new GcStatic("current_c_gc_state", 4, layout.constant("gc.c_gc_state_free")),
                        new GcStatic("global_regions_to_decommit", kinds * freeList, 0),
                        new GcStatic("global_free_huge_regions", freeList, 0));
        if (process.server()) {
            return global;
        }
        List<GcStatic> all = new java.util.ArrayList<>(global);
        all.addAll(List.of(
                new GcStatic("gc_global_mechanisms", word * layout.constant("gc.global_mechanisms"), 0),
                new GcStatic("mark_array", word, 0),
                new GcStatic("background_saved_lowest_address", word, 0),
                new GcStatic("background_saved_highest_address", word, 0),
                new GcStatic("next_sweep_obj", word, 0),
                new GcStatic("oom_info", layout.type("oom_history").size().orElseThrow(), 0),
                new GcStatic("internal_root_array", word, 0),
                new GcStatic("internal_root_array_index", word, 0),
                new GcStatic("heap_analyze_success", 4, layout.constant("gc.heap_analyze_success")),
                new GcStatic("interesting_data_per_heap", word * layout.constant("gc.interesting_data_points"), 0),
                new GcStatic("compact_reasons_per_heap", word * layout.constant("gc.compact_reasons"), 0),
                new GcStatic("expand_mechanisms_per_heap", word * layout.constant("gc.expand_mechanisms"), 0),
                new GcStatic("interesting_mechanism_bits_per_heap", word * layout.constant("gc.mechanism_bits"), 0)));
        if (segments != null) {
            // libclrgc.so publishes saved_sweep_ephemeral_seg and _start, no free_regions, and leaves the per-heap
            // history arrays null (the real workstation dumps)
            all.removeIf(v -> v.name().endsWith("_per_heap"));
            all.add(new GcStatic("saved_sweep_ephemeral_seg", word, 0));
            all.add(new GcStatic("saved_sweep_ephemeral_start", word, 0));
        } else {
            all.add(new GcStatic("free_regions", kinds * freeList, 0));
        }
        all.add(new GcStatic("freeable_soh_segment", word, 0));
        all.add(new GcStatic("freeable_uoh_segment", word, 0));
        return all;
    }

    private void writeGcDacVars(List<Heap> heaps, long heapArray, long handleTableMap) {
        var memory = process.memory();
        GcDacVars.Writable vars = process.views().view(GcDacVars.Writable.class, memory, gcDacVars);
        boolean server = process.server();
        vars.majorVersion((int) layout.constant("gc_dac_vars.major_version"));
        vars.minorVersion(segments != null ? segments.gcDacVarsMinor() : GC_DAC_MINOR.get(layout.version()));
        vars.generationSize(generationSize());
        vars.totalGenerationCount(layout.constant("generation.count"));
        vars.buildVariant(gcStatic("build_variant"));
        memory.writeByte(gcStatic("build_variant"), (byte) (segments != null ? segments.buildVariant()
                : layout.version() == RuntimeVersion.NET10 ? (server ? 5 : 1) : 2));
        vars.builtWithSvr(gcStatic("built_with_svr"));
        memory.writeByte(gcStatic("built_with_svr"), (byte) 1);
        vars.maxGen(gcStatic("max_gen"));
        memory.writeInt(gcStatic("max_gen"), (int) layout.constant("generation.gen2"));
        vars.gcStructuresInvalidCnt(gcStatic("gc_structures_invalid_cnt"));
        vars.handleTableMap(handleTableMap);
        vars.generationFieldOffsets(gcStatic("generation_field_offsets"));
        long generationOffsets = gcStatic("generation_field_offsets");
        memory.writeInt(generationOffsets, (int) layout.offset("generation", "allocation_context"));
        memory.writeInt(generationOffsets + 4, (int) layout.offset("generation", "start_segment"));
        // allocation_start: regions have none
        memory.writeInt(generationOffsets + 8, segments != null ? (int) segments.allocationStart() : -1);
        vars.bookkeepingStart(gcStatic("bookkeeping_start"));
        // bookkeeping_start: the card_table_info header of the bookkeeping area, whose region map holds the regions' heap_segments
        memory.writePointer(gcStatic("bookkeeping_start"), process.bookkeeping().start());
        for (GcStatic v : publishedStatics()) {
            long at = gcStatic(v.name());
            memory.writePointer(gcDacVars + layout.offset("GcDacVars", v.name()), at);
            if (v.value() != 0) {
                memory.writeInt(at, (int) v.value());
            }
        }
        vars.totalBookkeepingElements(segments != null ? segments.bookkeepingElements() : 7);
        vars.countFreeRegionKinds(segments != null ? segments.freeRegionKinds() : (int) layout.constant("gc.free_region_kinds"));
        vars.cardTableInfoSize(segments != null ? segments.cardTableInfoSize() : 0x40);
        if (server) {
            vars.nHeaps(gcStatic("n_heaps"));
            memory.writeInt(gcStatic("n_heaps"), heaps.size());
            vars.gHeaps(gcStatic("g_heaps"));
            memory.writePointer(gcStatic("g_heaps"), heapArray);
            vars.gcHeapFieldOffsets(gcStatic("gc_heap_field_offsets"));
            List<String> order = layout.dacFieldOrder().get("gc_heap");
            for (int i = 0; i < order.size(); i++) {
                var field = layout.type("gc_heap").findField(order.get(i));
                int offset = segments != null ? segments.gcHeapFieldOffsets().get(i) : field.map(f -> (int) f.offset()).orElse(-1);
                memory.writeInt(gcStatic("gc_heap_field_offsets") + 4L * i, offset);
            }
            if (vars.hasDynamicAdaptationMode()) {
                vars.dynamicAdaptationMode(gcStatic("dynamic_adaptation_mode"));
            }
        } else {
            Heap heap = heaps.get(0);
            vars.generationTable(heap.generationTable());
            vars.allocAllocated(gcStatic("alloc_allocated"));
            memory.writePointer(gcStatic("alloc_allocated"), heap.allocAllocated());
            vars.ephemeralHeapSegment(gcStatic("ephemeral_heap_segment"));
            memory.writePointer(gcStatic("ephemeral_heap_segment"), heap.ephemeralSegment());
            vars.finalizeQueue(gcStatic("finalize_queue"));
            memory.writePointer(gcStatic("finalize_queue"), heap.finalizeQueue());
        }
    }
}
