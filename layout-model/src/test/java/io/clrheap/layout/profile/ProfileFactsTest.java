package io.clrheap.layout.profile;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.layout.FieldLayout;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.TypeLayout;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Known facts of the real runtimes, held against every built-in profile. */
class ProfileFactsTest {

    private static final ProfileLoader LOADER = ProfileLoader.builtIn();

    static Stream<Arguments> allProfiles() {
        return Stream.of(RuntimeVersion.values())
                .flatMap(v -> Stream.of(GcFlavor.values()).map(gc -> Arguments.of(v, gc)));
    }

    private static RuntimeLayout load(RuntimeVersion v, GcFlavor gc) {
        return LOADER.load(v, gc);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("allProfiles")
    void heapSegmentPrefixIsTheDacHeapSegment(RuntimeVersion v, GcFlavor gc) {
        RuntimeLayout l = load(v, gc);
        assertThat(l.offset("heap_segment", "allocated")).isZero();
        assertThat(l.offset("heap_segment", "mem")).isEqualTo(0x20);
        assertThat(l.offset("heap_segment", "flags")).isEqualTo(0x28);
        assertThat(l.offset("heap_segment", "next")).isEqualTo(0x30);
        assertThat(l.offset("heap_segment", "background_allocated")).isEqualTo(0x38);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("allProfiles")
    void heapSegmentHasItsOwningHeapOnlyUnderServerGc(RuntimeVersion v, GcFlavor gc) {
        TypeLayout seg = load(v, gc).type("heap_segment");
        assertThat(seg.findField("heap").map(FieldLayout::offset))
                .isEqualTo(gc == GcFlavor.SERVER ? java.util.Optional.of(0x40L) : java.util.Optional.empty());
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("allProfiles")
    void allocContextIsFiftySixBytesWithSevenFields(RuntimeVersion v, GcFlavor gc) {
        TypeLayout ctx = load(v, gc).type("gc_alloc_context");
        assertThat(ctx.size()).hasValue(56);
        assertThat(ctx.fields()).extracting(FieldLayout::name).containsExactly(
                "alloc_ptr", "alloc_limit", "alloc_bytes", "alloc_bytes_uoh", "gc_reserved_1", "gc_reserved_2", "alloc_count");
        assertThat(ctx.findField("gc_reserved_1").orElseThrow().offset()).isEqualTo(0x20);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("allProfiles")
    void objectSizingConstantsMatchTheRuntime(RuntimeVersion v, GcFlavor gc) {
        RuntimeLayout l = load(v, gc);
        assertThat(l.constant("free_object.base_size")).isEqualTo(24);
        assertThat(l.constant("free_object.mt_flags")).isEqualTo(0x80000001L);
        assertThat(l.constant("string.base_size")).isEqualTo(22);
        assertThat(l.constant("object.min_size")).isEqualTo(24);
        assertThat(l.constant("loh.pad_size")).isEqualTo(32);
        assertThat(l.constant("region.first_object_offset")).isEqualTo(0x28);
        assertThat(l.constant("region.basic_size")).isEqualTo(4L << 20);
        assertThat(l.constant("region.large_size")).isEqualTo(32L << 20);
        assertThat(l.offset("MethodTable", "BaseSize")).isEqualTo(4);
        assertThat(l.offset("Array", "m_NumComponents")).isEqualTo(8);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("allProfiles")
    void diagDescrGenerationsIsVtableSlot69(RuntimeVersion v, GcFlavor gc) {
        RuntimeLayout l = load(v, gc);
        assertThat(l.constant("IGCHeap.DiagDescrGenerations.slot")).isEqualTo(69);
        assertThat(l.offset("IGCHeapVtable", "DiagDescrGenerations")).isEqualTo(69 * 8);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("allProfiles")
    void gcHeapObjectPointsToItsGcHeapOnlyUnderServerGc(RuntimeVersion v, GcFlavor gc) {
        RuntimeLayout l = load(v, gc);
        assertThat(l.type("GCHeap").findField("pGenGCHeap").isPresent()).isEqualTo(gc == GcFlavor.SERVER);
        assertThat(l.findType("gc_heap").isPresent()).isEqualTo(gc == GcFlavor.SERVER);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("allProfiles")
    void generationStartSegmentIsAt0x38(RuntimeVersion v, GcFlavor gc) {
        RuntimeLayout l = load(v, gc);
        assertThat(l.offset("generation", "start_segment")).isEqualTo(0x38);
        assertThat(l.offset("generation", "allocation_context")).isZero();
        assertThat(l.dacFieldOrder().get("generation")).containsExactly("allocation_context", "start_segment", "allocation_start");
    }

    @Test
    void generationIs264BytesIn8And256In9And10() {
        assertThat(load(RuntimeVersion.NET8, GcFlavor.SERVER).type("generation").size()).hasValue(264);
        assertThat(load(RuntimeVersion.NET9, GcFlavor.SERVER).type("generation").size()).hasValue(256);
        assertThat(load(RuntimeVersion.NET10, GcFlavor.WORKSTATION).type("generation").size()).hasValue(256);
    }

    @Test
    void net8HoldsTheAllocationContextInlineAt0x58() {
        RuntimeLayout l = load(RuntimeVersion.NET8, GcFlavor.SERVER);
        FieldLayout ctx = l.field("Thread", "m_alloc_context");
        assertThat(ctx.offset()).isEqualTo(0x58);
        assertThat(ctx.type().name()).isEqualTo("gc_alloc_context");
        assertThat(l.type("Thread").findField("RuntimeThreadLocals")).isEmpty();
        assertThat(l.offset("Thread", "LinkNext")).isEqualTo(0xe8);
        assertThat(l.offset("ThreadStore", "FirstThreadLink")).isEqualTo(0xa0);
    }

    @Test
    void net9ReachesAGcAllocContextThroughRuntimeThreadLocals() {
        RuntimeLayout l = load(RuntimeVersion.NET9, GcFlavor.WORKSTATION);
        assertThat(l.offset("Thread", "RuntimeThreadLocals")).isEqualTo(0x20);
        assertThat(l.type("Thread").findField("m_alloc_context")).isEmpty();
        assertThat(l.field("RuntimeThreadLocals", "AllocContext").type().name()).isEqualTo("gc_alloc_context");
        assertThat(l.offset("RuntimeThreadLocals", "AllocContext")).isZero();
    }

    @Test
    void net10WrapsTheGcAllocContextInAnEeAllocContext() {
        RuntimeLayout l = load(RuntimeVersion.NET10, GcFlavor.SERVER);
        assertThat(l.field("RuntimeThreadLocals", "AllocContext").type().name()).isEqualTo("ee_alloc_context");
        assertThat(l.offset("ee_alloc_context", "m_CombinedLimit")).isZero();
        assertThat(l.offset("ee_alloc_context", "m_GCAllocContext")).isEqualTo(8);
        assertThat(l.offset("ThreadStore", "FirstThreadLink")).isEqualTo(0x58);
    }

    @Test
    void gcDacVarsGrowsDynamicAdaptationModeIn10() {
        assertThat(load(RuntimeVersion.NET8, GcFlavor.SERVER).type("GcDacVars").size()).hasValue(0x140);
        assertThat(load(RuntimeVersion.NET9, GcFlavor.SERVER).type("GcDacVars").findField("dynamic_adaptation_mode")).isEmpty();
        assertThat(load(RuntimeVersion.NET10, GcFlavor.SERVER).offset("GcDacVars", "dynamic_adaptation_mode")).isEqualTo(0x140);
    }

    @Test
    void dacTableIndexesArePerBuild() {
        var net8 = load(RuntimeVersion.NET8, GcFlavor.SERVER);
        assertThat(net8.buildWithDacTableLength(157).orElseThrow().version()).isEqualTo("8.0.30");
        assertThat(net8.buildWithDacTableLength(156).orElseThrow().version()).isEqualTo("8.0.27");
        assertThat(net8.primaryBuild().dacTable().indexOf("g_gcDacGlobals")).hasValue(20);
        assertThat(net8.primaryBuild().dacTable().indexOf("g_pFreeObjectMethodTable")).hasValue(54);
        var net9 = load(RuntimeVersion.NET9, GcFlavor.WORKSTATION).primaryBuild();
        assertThat(net9.dacTable().length()).isEqualTo(158);
        assertThat(net9.dacTable().indexOf("g_global_alloc_context")).hasValue(40);
        var net10 = load(RuntimeVersion.NET10, GcFlavor.SERVER).primaryBuild();
        assertThat(net10.dacTable().length()).isEqualTo(129);
        assertThat(net10.dacTable().indexOf("ThreadStore::s_pThreadStore")).hasValue(15);
        assertThat(net10.dacTable().indexOf("g_pFreeObjectMethodTable")).hasValue(56);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("allProfiles")
    void dumpFactsCiteADumpAndSourceFactsCiteARevisionOfTheRuntime(RuntimeVersion v, GcFlavor gc) {
        RuntimeLayout l = load(v, gc);
        java.util.List<io.clrheap.layout.Provenance> all = new java.util.ArrayList<>();
        l.types().values().forEach(t -> t.fields().forEach(f -> all.add(f.provenance())));
        l.constants().values().forEach(c -> all.add(c.provenance()));
        l.globals().values().forEach(g -> all.add(g.provenance()));
        for (var p : all) {
            switch (p.certainty()) {
                case DUMP -> assertThat(p.sourceKey()).as(p.describe()).matches("[ED]:.*");
                case SOURCE -> assertThat(p.citation()).as(p.describe()).containsPattern("dotnet/(runtime|diagnostics)(:|/blob/)");
                case INFERRED -> assertThat(p.citation()).as(p.describe()).isNotBlank();
            }
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("allProfiles")
    void factsStatedTwiceAgree(RuntimeVersion v, GcFlavor gc) {
        RuntimeLayout l = load(v, gc);
        assertThat(l.offset("IGCHeapVtable", "DiagDescrGenerations"))
                .isEqualTo(l.constant("IGCHeap.DiagDescrGenerations.slot") * l.constant("IGCHeap.slot_size"));
        assertThat(l.offset("IGCHeapVtable", "RegisterFrozenSegment"))
                .isEqualTo(l.constant("IGCHeap.RegisterFrozenSegment.slot") * l.constant("IGCHeap.slot_size"));
        assertThat(l.offset("IGCHeapVtable", "UnregisterFrozenSegment"))
                .isEqualTo(l.constant("IGCHeap.UnregisterFrozenSegment.slot") * l.constant("IGCHeap.slot_size"));
        assertThat(l.offset("TableSegment", "rgValue")).isEqualTo(l.constant("handle.header_size"));
        assertThat(l.type("TableSegment").size()).hasValue(l.constant("handle.segment_size"));
        assertThat(l.field("TableSegment", "rgValue").type().count()).isEqualTo(l.constant("handle.handles_per_segment"));
        assertThat(l.constant("region.large_size")).isEqualTo(l.constant("region.basic_size") * l.constant("region.large_factor"));
        assertThat(l.type("ObjectHeader").size()).hasValue(l.constant("object.header_size"));
        assertThat(l.constant("object.base_size")).isEqualTo(l.constant("object.header_size") + l.type("Object").size().getAsLong());
        assertThat(l.constant("free_object.mt_block_size")).isEqualTo(l.type("MethodTable").size().getAsLong());
        assertThat(l.field("CFinalize", "m_FillPointers").type().count()).isEqualTo(l.constant("generation.count") + 2);
        if (l.globals().containsKey("ObjectToMethodTableUnmask")) {
            assertThat(l.globals().get("ObjectToMethodTableUnmask").longValue()).isEqualTo(l.constant("object.mt_unmask"));
            assertThat(l.globals().get("ObjectHeaderSize").longValue()).isEqualTo(l.constant("object.header_size"));
        }
        if (l.findType("ContractDescriptor").isPresent()) {
            assertThat(l.type("ContractDescriptor").size()).hasValue(0x28);
        }
    }

    @Test
    void net8PublishesNoDescriptorGlobalsWhile9And10Do() {
        assertThat(load(RuntimeVersion.NET8, GcFlavor.SERVER).globals()).isEmpty();
        assertThat(load(RuntimeVersion.NET9, GcFlavor.SERVER).globals()).containsKey("ObjectToMethodTableUnmask").doesNotContainKey("OperatingSystem");
        assertThat(load(RuntimeVersion.NET10, GcFlavor.SERVER).globals()).containsKeys("ObjectToMethodTableUnmask", "OperatingSystem");
    }

    @Test
    void dacTableEntriesAreOrderedByIndex() {
        var entries = load(RuntimeVersion.NET10, GcFlavor.SERVER).primaryBuild().dacTable().entries().values().stream()
                .map(io.clrheap.layout.DacTable.DacTableEntry::index).toList();
        assertThat(entries).isSorted().doesNotHaveDuplicates();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("allProfiles")
    void serverHeapPublishesItsGenerationTableWhereTheFieldOffsetArraySays(RuntimeVersion v, GcFlavor gc) {
        RuntimeLayout l = load(v, gc);
        var order = l.dacFieldOrder().get("gc_heap");
        assertThat(order).startsWith("alloc_allocated", "ephemeral_heap_segment", "finalize_queue");
        assertThat(order.get(18)).isEqualTo("generation_table");
        if (gc == GcFlavor.SERVER) {
            TypeLayout heap = l.type("gc_heap");
            FieldLayout table = heap.findField("generation_table").orElseThrow();
            assertThat(table.type().count()).isEqualTo(5);
            assertThat(table.elementSize()).isEqualTo(l.type("generation").size().getAsLong());
        }
    }

    @Test
    void handleTablesHaveTwelveInternalTypesIn8And9AndThirteenIn10() {
        for (var v : new RuntimeVersion[] {RuntimeVersion.NET8, RuntimeVersion.NET9}) {
            RuntimeLayout l = load(v, GcFlavor.SERVER);
            assertThat(l.constant("handle.max_internal_types")).isEqualTo(12);
            assertThat(l.offset("HandleTable", "pSegmentList")).isEqualTo(0x30);
            assertThat(l.offset("TableSegment", "pHandleTable")).isEqualTo(2000);
        }
        RuntimeLayout net10 = load(RuntimeVersion.NET10, GcFlavor.WORKSTATION);
        assertThat(net10.constant("handle.max_internal_types")).isEqualTo(13);
        assertThat(net10.offset("HandleTable", "pSegmentList")).isEqualTo(0x38);
        assertThat(net10.offset("TableSegment", "pNextSegment")).isEqualTo(1998);
        assertThat(net10.offset("TableSegment", "pHandleTable")).isEqualTo(2006);
        assertThat(net10.offset("TableSegment", "rgValue")).isEqualTo(0x1000);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("allProfiles")
    void finalizeQueueHasSevenFillPointersThenItsArray(RuntimeVersion v, GcFlavor gc) {
        RuntimeLayout l = load(v, gc);
        assertThat(l.field("CFinalize", "m_FillPointers").type().count()).isEqualTo(7);
        assertThat(l.offset("CFinalize", "m_Array")).isEqualTo(0x38);
        assertThat(l.offset("CFinalize", "m_EndArray")).isEqualTo(0x40);
    }

    @Test
    void theOsThreadIdSitsAt0x1a8In8And0x128In9And10() {
        assertThat(load(RuntimeVersion.NET8, GcFlavor.WORKSTATION).offset("Thread", "OSId")).isEqualTo(0x1a8);
        assertThat(load(RuntimeVersion.NET9, GcFlavor.SERVER).offset("Thread", "OSId")).isEqualTo(0x128);
        assertThat(load(RuntimeVersion.NET10, GcFlavor.SERVER).offset("Thread", "OSId")).isEqualTo(0x128);
    }

    @Test
    void serverHeapsPublishTheirOffsetsAsTheRealBuildsDo() {
        RuntimeLayout net8 = load(RuntimeVersion.NET8, GcFlavor.SERVER);
        assertThat(net8.offset("gc_heap", "alloc_allocated")).isEqualTo(5248);
        assertThat(net8.offset("gc_heap", "generation_table")).isEqualTo(2376);
        RuntimeLayout net10 = load(RuntimeVersion.NET10, GcFlavor.SERVER);
        assertThat(net10.offset("gc_heap", "alloc_allocated")).isEqualTo(5208);
        assertThat(net10.offset("gc_heap", "vm_heap")).isEqualTo(5496);
    }

    @Test
    void workstationRegionDescriptorsDropDecommitTargetAfter8() {
        assertThat(load(RuntimeVersion.NET8, GcFlavor.WORKSTATION).offset("heap_segment", "gen_num")).isEqualTo(0x68);
        assertThat(load(RuntimeVersion.NET9, GcFlavor.WORKSTATION).offset("heap_segment", "gen_num")).isEqualTo(0x60);
        assertThat(load(RuntimeVersion.NET10, GcFlavor.WORKSTATION).type("heap_segment").findField("decommit_target")).isEmpty();
        assertThat(load(RuntimeVersion.NET10, GcFlavor.SERVER).offset("heap_segment", "gen_num")).isEqualTo(0x70);
    }
}
