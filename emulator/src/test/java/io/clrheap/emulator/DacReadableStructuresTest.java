package io.clrheap.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.RuntimeVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import io.clrheap.emulator.types.TypeSystem;
import io.clrheap.emulator.scenario.TypeDef;

/**
 * What Microsoft's DAC reads for a heap walk is laid out in every emulated process, as the real runtime lays it out:
 * the DAC dereferences every pointer GcDacVars publishes, follows the thread store's SList, and checks the type graph
 * (MethodTable, EEClass, Module, element types) of every object it meets.
 */
class DacReadableStructuresTest {

    /** GcDacVars pointer slots the real 9.0.1 workstation build fills (net9-wks: all but saved_sweep_ephemeral_seg/start and the server-only ones). */
    private static final List<String> WORKSTATION_SLOTS = List.of("build_variant", "built_with_svr", "gc_global_mechanisms",
            "generation_table", "max_gen", "mark_array", "current_c_gc_state", "ephemeral_heap_segment",
            "background_saved_lowest_address", "background_saved_highest_address", "alloc_allocated", "next_sweep_obj",
            "oom_info", "finalize_queue", "internal_root_array", "internal_root_array_index", "heap_analyze_success",
            "gc_structures_invalid_cnt", "interesting_data_per_heap", "compact_reasons_per_heap", "expand_mechanisms_per_heap",
            "interesting_mechanism_bits_per_heap", "handle_table_map", "generation_field_offsets", "bookkeeping_start",
            "global_regions_to_decommit", "global_free_huge_regions", "free_regions", "freeable_soh_segment", "freeable_uoh_segment");
    /** GcDacVars pointer slots the real 9.0.1 server build fills (net9-svr). */
    private static final List<String> SERVER_SLOTS = List.of("build_variant", "built_with_svr", "max_gen", "current_c_gc_state",
            "n_heaps", "g_heaps", "gc_structures_invalid_cnt", "handle_table_map", "gc_heap_field_offsets", "generation_field_offsets",
            "bookkeeping_start", "global_regions_to_decommit", "global_free_huge_regions");

    static Stream<Arguments> processes() {
        return Stream.of("default", "every-edge", "user-types").flatMap(name -> Stream.of(RuntimeVersion.values())
                .flatMap(v -> Stream.of(GcFlavor.values()).map(gc -> Arguments.of(name, v, gc))));
    }

    private static EmulatedRuntime build(String name, RuntimeVersion v, GcFlavor gc) {
        return new RuntimeBuilder().build(Scenarios.named(name).orElseThrow().on(v, gc));
    }

    /** The address g_dacTable's entry {@code name} holds (the address of that variable). */
    private static long dacVariable(EmulatedRuntime runtime, String name) {
        long table = WindowsPlatformTest.elfSymbols(runtime.memory(), runtime.module().base()).get("g_dacTable");
        return runtime.memory().readLong(table + 8L * runtime.layout().primaryBuild().dacTable().entries().get(name).index());
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("processes")
    void everyGcDacVarsSlotTheRealBuildFillsPointsAtMemoryWithTheValueOutsideAGc(String name, RuntimeVersion v, GcFlavor gc) {
        EmulatedRuntime runtime = build(name, v, gc);
        var memory = runtime.memory();
        RuntimeLayout layout = runtime.layout();
        long vars = memory.readLong(dacVariable(runtime, "g_gcDacGlobals"));
        for (String slot : gc == GcFlavor.SERVER ? SERVER_SLOTS : WORKSTATION_SLOTS) {
            long target = memory.readLong(vars + layout.offset("GcDacVars", slot));
            assertThat(target).as("GcDacVars.%s", slot).isNotZero();
            assertThat(memory.contains(target, 4)).as("GcDacVars.%s -> 0x%x", slot, target).isTrue();
        }
        long state = memory.readLong(vars + layout.offset("GcDacVars", "current_c_gc_state"));
        assertThat(memory.readInt(state)).as("c_gc_state_free").isEqualTo(2);
        if (gc == GcFlavor.WORKSTATION) {
            assertThat(memory.readInt(memory.readLong(vars + layout.offset("GcDacVars", "heap_analyze_success")))).isEqualTo(1);
        } else {
            // every gc_heap field the published offsets reach lies inside the gc_heap; heap_analyze_success is TRUE
            long offsets = memory.readLong(vars + layout.offset("GcDacVars", "gc_heap_field_offsets"));
            long heaps = memory.readLong(memory.readLong(vars + layout.offset("GcDacVars", "g_heaps")));
            long gcHeap = memory.readLong(heaps);
            long size = layout.type("gc_heap").extent();
            List<String> order = layout.dacFieldOrder().get("gc_heap");
            for (int i = 0; i < order.size(); i++) {
                int offset = memory.readInt(offsets + 4L * i);
                if (offset >= 0) {
                    assertThat((long) offset).as(order.get(i)).isLessThan(size);
                    assertThat(memory.contains(gcHeap + offset, 8)).isTrue();
                }
            }
            layout.type("gc_heap").findField("heap_analyze_success")
                    .ifPresent(f -> assertThat(memory.readInt(gcHeap + f.offset())).isEqualTo(1));
        }
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("processes")
    void theThreadStoresThreadListIsAnSListWithItsHeadPointerAndTail(String name, RuntimeVersion v, GcFlavor gc) {
        EmulatedRuntime runtime = build(name, v, gc);
        var memory = runtime.memory();
        RuntimeLayout layout = runtime.layout();
        long store = memory.readLong(dacVariable(runtime, "ThreadStore::s_pThreadStore"));
        long head = store + layout.offset("ThreadStore", "FirstThreadLink");
        assertThat(memory.readLong(store + layout.offset("ThreadStore", "ThreadListHead"))).isEqualTo(head);
        List<Long> links = new ArrayList<>();
        for (long link = memory.readLong(head); link != 0; link = memory.readLong(link)) {
            links.add(link);
        }
        assertThat(links).hasSize(memory.readInt(store + layout.offset("ThreadStore", "ThreadCount")));
        assertThat(memory.readLong(store + layout.offset("ThreadStore", "ThreadListTail"))).isEqualTo(links.get(links.size() - 1));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("processes")
    void everyMethodTableHasAModuleAndAnEeClassPointingBackAndEveryArrayItsElementType(String name, RuntimeVersion v, GcFlavor gc) {
        EmulatedRuntime runtime = build(name, v, gc);
        var memory = runtime.memory();
        RuntimeLayout layout = runtime.layout();
        long moduleVtable = dacVariable(runtime, "Module__vtAddr");
        long free = memory.readLong(dacVariable(runtime, "g_pFreeObjectMethodTable"));
        Map<Long, String> names = runtime.typeNames();
        int arrays = 0;
        for (var e : names.entrySet()) {
            long mt = e.getKey();
            if (mt == free) {
                continue;
            }
            long module = memory.readLong(mt + layout.offset("MethodTable", "Module"));
            assertThat(module).as("%s's Module", e.getValue()).isNotZero();
            assertThat(memory.readLong(module)).as("%s's Module starts with the Module vtable", e.getValue()).isEqualTo(moduleVtable);
            long eeClass = memory.readLong(mt + layout.offset("MethodTable", "EEClassOrCanonMT"));
            assertThat(memory.readLong(eeClass + layout.offset("EEClass", "MethodTable"))).as("%s's EEClass points back", e.getValue()).isEqualTo(mt);
            int flags = memory.readInt(mt);
            boolean isArray = (flags & 0x80000000) != 0 && (flags & 0x000c0000) == 0x00080000; // HasComponentSize + Category_Array
            if (isArray) {
                arrays++;
                long element = memory.readLong(mt + layout.offset("MethodTable", "PerInstInfo"));
                assertThat(names).as("%s's element type", e.getValue()).containsKey(element);
                assertThat(names.get(element)).isEqualTo(TypeSystem.elementName(TypeDef.arrayOf(e.getValue().replaceAll("\\[,*\\]$", "[]"), 1)));
                assertThat(memory.readLong(mt + layout.offset("MethodTable", "ParentMethodTable")))
                        .isEqualTo(memory.readLong(dacVariable(runtime, "g_pArrayClass")));
                assertThat(memory.readByte(eeClass + layout.offset("ArrayClass", "Rank"))).isPositive();
            }
        }
        assertThat(arrays).isGreaterThanOrEqualTo(5);
        // GetUsefulGlobals: System.Array and System.Object[]
        long objectArray = memory.readLong(dacVariable(runtime, "g_pPredefinedArrayTypes") + 8 * layout.constant("element_type.object"));
        assertThat(names.get(objectArray)).isEqualTo("System.Object[]");
        assertThat(names.get(memory.readLong(dacVariable(runtime, "g_pArrayClass")))).isEqualTo("System.Array");
    }

    /**
     * GetMethodTableName follows MethodTable -> Module -> PEAssembly -> PEImage -> loaded layout -> CLI header ->
     * metadata without a check (request.cpp): each of the two Modules (CoreLib's, under System.Object; the scenario
     * assembly's, under Node) names the PEAssembly it was loaded from, whose PEImage has the assembly's file name and a
     * loaded layout over the image mapped from that file, with its cached NT and CLI headers, its vtable the one
     * g_dacTable names where the profile has it, and Module.Base (9, 10) its base.
     */
    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("processes")
    void everyModuleNamesTheFileItWasLoadedFromAndItsMappedImage(String name, RuntimeVersion v, GcFlavor gc) {
        EmulatedRuntime runtime = build(name, v, gc);
        var memory = runtime.memory();
        RuntimeLayout layout = runtime.layout();
        long nodeType = -1;
        for (var e : runtime.typeNames().entrySet()) {
            if (e.getValue().equals(TypeDef.NODE.name())) {
                nodeType = e.getKey();
            }
        }
        Map<Long, String> files = new java.util.LinkedHashMap<>();
        files.put(memory.readLong(dacVariable(runtime, "g_pObjectClass")), io.clrheap.emulator.types.AssemblyPlan.CORE_LIB + ".dll");
        files.put(nodeType, runtime.scenario().name() + ".dll");
        List<Long> modules = new ArrayList<>();
        for (var e : files.entrySet()) {
            long module = memory.readLong(e.getKey() + layout.offset("MethodTable", "Module"));
            modules.add(module);
            long assembly = memory.readLong(module + layout.offset("Module", "PEAssembly"));
            assertThat(assembly).as("Module.PEAssembly").isNotZero();
            long vtable = memory.readLong(assembly + layout.offset("PEAssembly", "VTable"));
            assertThat(vtable).as("PEAssembly's vtable lies in the runtime module")
                    .isBetween(runtime.module().base(), runtime.module().base() + runtime.module().size());
            long image = memory.readLong(assembly + layout.offset("PEAssembly", "PEImage"));
            assertThat(image).as("PEAssembly.PEImage").isNotZero();
            long path = image + layout.offset("PEImage", "Path");
            int bytes = memory.readInt(path + layout.offset("SString", "Size"));
            byte[] chars = new byte[bytes - 2];
            memory.read(memory.readLong(path + layout.offset("SString", "Buffer")), chars, 0, chars.length);
            assertThat(new String(chars, java.nio.charset.StandardCharsets.UTF_16LE)).isEqualTo(e.getValue());
            assertThat(memory.readLong(image + layout.offset("PEImage", "FlatLayout"))).as("no flat layout").isZero();
            long loaded = memory.readLong(image + layout.offset("PEImage", "LoadedLayout"));
            assertThat(loaded).as("a loaded layout").isNotZero();
            long base = memory.readLong(loaded + layout.offset("PEImageLayout", "Base"));
            assertThat(memory.readShort(base)).as("MZ at the image base").isEqualTo((short) 0x5a4d);
            long nt = base + memory.readInt(base + 0x3c);
            assertThat(memory.readLong(loaded + layout.offset("PEImageLayout", "NTHeaders"))).isEqualTo(nt);
            assertThat(memory.readInt(nt)).as("PE signature").isEqualTo(0x4550);
            long cor = memory.readLong(loaded + layout.offset("PEImageLayout", "CorHeader"));
            assertThat(memory.readInt(cor)).as("IMAGE_COR20_HEADER.cb").isEqualTo(72);
            assertThat(memory.readInt(base + memory.readInt(cor + 8))).as("BSJB").isEqualTo(0x424A5342);
            assertThat(memory.readLong(loaded + layout.offset("PEImageLayout", "Owner"))).isEqualTo(image);
            if (layout.primaryBuild().dacTable().entries().containsKey("LoadedImageLayout__vtAddr")) {
                assertThat(memory.readLong(loaded + layout.offset("PEImageLayout", "VTable"))).isEqualTo(dacVariable(runtime, "LoadedImageLayout__vtAddr"));
            }
            layout.type("Module").findField("Base").ifPresent(f -> assertThat(memory.readLong(module + f.offset())).as("Module.Base").isEqualTo(base));
            assertThat(runtime.mappings()).as("the image is mapped from its file")
                    .anyMatch(m -> m.start() == base && m.fileOffset() == 0 && m.path().equals(e.getValue()));
        }
        assertThat(modules).doesNotHaveDuplicates();
        assertThat(runtime.mappings().get(0).start()).as("the runtime module's mappings come first").isEqualTo(runtime.module().base());
    }
}
