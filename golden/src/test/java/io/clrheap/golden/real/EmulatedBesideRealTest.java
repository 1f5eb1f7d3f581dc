package io.clrheap.golden.real;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.process.GcBookkeeping;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.layout.view.GcDacVars;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.source.elf.MappedFile;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetOpener;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An emulated process next to the real dump of the build it claims to be: every discovery step has the same shape
 * (the values differ; table lengths, versions, offsets, offset arrays, flags and geometry must not).
 */
class EmulatedBesideRealTest {

    static Stream<Arguments> pairs() {
        return Stream.of(
                Arguments.of("net8-svr", RuntimeVersion.NET8, GcFlavor.SERVER),
                Arguments.of("net9-wks", RuntimeVersion.NET9, GcFlavor.WORKSTATION),
                Arguments.of("net9-svr", RuntimeVersion.NET9, GcFlavor.SERVER),
                Arguments.of("net10-svr", RuntimeVersion.NET10, GcFlavor.SERVER),
                Arguments.of("net10-small", RuntimeVersion.NET10, GcFlavor.WORKSTATION));
    }

    /** What a DAC-less walker sees of a process, with the values that differ between processes left out. */
    private static Map<String, Object> shape(Target t, DiscoveredHeap heap) {
        Map<String, Object> s = new TreeMap<>();
        var memory = t.memory();
        s.put("dac table length", t.module().dacTableLength());
        s.put("version", t.version());
        s.put("gc", t.gc());
        GcDacVars vars = t.views().view(GcDacVars.class, memory, t.globalPointer("g_gcDacGlobals"));
        s.put("GcDacVars version", vars.majorVersion() + "." + vars.minorVersion());
        s.put("generation_size", vars.generationSize());
        s.put("total_generation_count", vars.totalGenerationCount());
        s.put("build_variant", memory.readU8(vars.buildVariant()));
        s.put("built_with_svr", memory.readU8(vars.builtWithSvr()));
        s.put("max_gen", memory.readInt(vars.maxGen()));
        s.put("null pointers", List.of(vars.nHeaps() == 0, vars.gHeaps() == 0, vars.gcHeapFieldOffsets() == 0,
                vars.generationTable() == 0, vars.allocAllocated() == 0, vars.ephemeralHeapSegment() == 0, vars.finalizeQueue() == 0));
        List<Integer> generationOffsets = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            generationOffsets.add(memory.readInt(vars.generationFieldOffsets() + 4L * i));
        }
        s.put("generation_field_offsets", generationOffsets);
        if (vars.gcHeapFieldOffsets() != 0) {
            List<Integer> heapOffsets = new ArrayList<>();
            for (int i = 0; i < t.layout().dacFieldOrder().get("gc_heap").size(); i++) {
                heapOffsets.add(memory.readInt(vars.gcHeapFieldOffsets() + 4L * i));
            }
            s.put("gc_heap_field_offsets", heapOffsets);
        }
        long freeMt = heap.freeMethodTable();
        s.put("free MethodTable", List.of(memory.readInt(freeMt), memory.readInt(freeMt + 4), memory.readLong(freeMt + 8), memory.readLong(freeMt + 0x38)));
        // region geometry: mem at +0x28 of a region aligned to its size; flags and gen_num per kind
        Map<String, Object> kinds = new TreeMap<>();
        for (Region r : heap.regionsByAddress()) {
            long genNum = memory.readU8(r.descriptor() + t.layout().offset("heap_segment", "gen_num"));
            if (r.kind() == SegmentKind.FROZEN) {
                kinds.put("frozen", List.of(r.flags(), genNum));
                continue;
            }
            // regions start at basic-region (4 MiB) alignment, large ones too; mem = start + 0x28; size from reserved
            long start = r.mem() & -(4L << 20);
            kinds.put(r.kind().id(), List.of(r.flags(), genNum, r.mem() - start, r.reserved() - start));
        }
        s.put("regions", kinds);
        s.put("region map", regionMap(t, vars, heap));
        s.put("frozen segment first in heap 0's gen2 list", heap.heaps().get(0).regions().get(0).kind() == SegmentKind.FROZEN);
        s.put("heaps have a gc_heap", heap.heaps().stream().allMatch(h -> h.gcHeap() != 0));
        s.put("threads with a live allocation context", heap.contexts().stream().anyMatch(c -> c.inUse() && c.owner().startsWith("thread")));
        s.put("contract descriptor", t.layout().findType("ContractDescriptor").isPresent());
        return s;
    }

    /**
     * Where the regions' heap_segments are (docs/reference/clr-layouts.md section 11a):
     * every region's is base + (start >> 22) * sizeof(heap_segment), one base for all; the map's entry of
     * g_lowest_address lies at a fixed offset from *bookkeeping_start (for the same GC range size), whose
     * card_table_info names the GC range and the area's size; frozen segments' descriptors lie outside the GC range.
     */
    private static List<Object> regionMap(Target t, GcDacVars vars, DiscoveredHeap heap) {
        var memory = t.memory();
        long entrySize = t.layout().type("heap_segment").size().orElseThrow();
        long lowest = t.globalPointer("g_lowest_address");
        long highest = t.globalPointer("g_highest_address");
        long bookkeeping = memory.readPointer(vars.bookkeepingStart());
        java.util.Set<Long> bases = new java.util.TreeSet<>();
        boolean frozenOutside = true;
        for (Region r : heap.regionsByAddress()) {
            if (r.kind() == SegmentKind.FROZEN) {
                frozenOutside &= Long.compareUnsigned(r.descriptor() - lowest, highest - lowest) >= 0;
                continue;
            }
            bases.add(r.descriptor() - ((r.mem() & -(4L << 20)) >>> 22) * entrySize);
        }
        long base = bases.iterator().next();
        // the offsets within the area depend on the GC range's size (net10-small's is 47 GiB, the others' 256 GiB):
        // compare them with the layout computed for the range
        GcBookkeeping expected = GcBookkeeping.of(lowest, highest, entrySize, 22);
        long size = memory.readLong(bookkeeping + 8);
        return List.of("bases " + bases.size(),
                "entry(lowest) - bookkeeping_start as computed " + (base + (lowest >>> 22) * entrySize - bookkeeping == expected.segMappingTable() - expected.start()),
                "card_table_info size as computed " + (size == expected.size()),
                "card_table_info tables as computed " + List.of(memory.readLong(bookkeeping + 0x28) - bookkeeping == expected.brickTable() - expected.start(),
                        memory.readLong(bookkeeping + 0x30) - bookkeeping == expected.cardBundleTable() - expected.start(),
                        memory.readLong(bookkeeping + 0x38) - bookkeeping == expected.markArray() - expected.start()),
                "card_table_info range is [lowest, highest) " + (memory.readLong(bookkeeping + 0x18) == lowest && memory.readLong(bookkeeping + 0x20) == highest),
                "the area ends at lowest, rounded up to a basic region " + (((bookkeeping + size + (4L << 20) - 1) & -(4L << 20)) == lowest),
                "g_card_table is the area's card table translated " + (t.globalPointer("g_card_table") + (lowest >>> 13) * 4 == bookkeeping + 0x40),
                "frozen descriptors outside the GC range " + frozenOutside);
    }

    /** A type as a walker sees its MethodTable: flags, BaseSize, the GC descriptor before it, its parent's flags and BaseSize. */
    private static List<Object> typeShape(io.clrheap.memory.Memory memory, long mt) {
        int flags = memory.readInt(mt);
        List<Object> shape = new ArrayList<>(List.of(String.format("0x%08x", flags), memory.readInt(mt + 4)));
        if ((flags & 0x01000000) != 0) { // ContainsGCPointers: the series count, then {seriessize, startoffset} below it
            shape.add(List.of(memory.readLong(mt - 8), memory.readLong(mt - 24), memory.readLong(mt - 16)));
        }
        long parent = memory.readLong(mt + 0x10);
        shape.add(parent == 0 ? "no parent" : String.format("parent 0x%08x %d", memory.readInt(parent), memory.readInt(parent + 4)));
        return shape;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void theBuiltInTypesHaveTheMethodTablesOfTheRealBuild(String realDump, RuntimeVersion version, GcFlavor gc) throws Exception {
        RealDump real = RealDump.of(realDump);
        Map<String, Long> realTypes = new TreeMap<>();
        for (String line : java.nio.file.Files.readAllLines(RealDump.root().resolve(realDump).resolve("live-objects.txt"))) {
            String[] f = line.split(" ", 4);
            if (!line.startsWith("#") && f.length == 4) {
                realTypes.putIfAbsent(f[3], RealDump.hex(f[2]));
            }
        }
        EmulatedRuntime emulated = new RuntimeBuilder().build(Scenario.defaultScenario(version, gc));
        Map<String, Long> emulatedTypes = new TreeMap<>();
        emulated.typeNames().forEach((mt, name) -> emulatedTypes.put(name, mt));
        int compared = 0;
        for (String type : List.of("System.Object", "System.String", "System.Byte[]", "System.Int32[]", "System.Int64[]", "System.Object[]",
                "System.Runtime.InteropServices.GCHandle", "Node", "Leaf", "Pair")) {
            if (realTypes.containsKey(type)) {
                assertThat(typeShape(emulated.memory(), emulatedTypes.get(type))).as(type)
                        .isEqualTo(typeShape(real.target.memory(), realTypes.get(type)));
                compared++;
            }
        }
        assertThat(compared).isGreaterThanOrEqualTo(6); // net10-small holds fewer of them
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void everyDiscoveryStepHasTheShapeOfTheRealBuild(String realDump, RuntimeVersion version, GcFlavor gc) throws Exception {
        RealDump real = RealDump.of(realDump);
        EmulatedRuntime emulated = new RuntimeBuilder().build(Scenario.defaultScenario(version, gc));
        List<MappedFile> files = emulated.mappings().stream().map(m -> new MappedFile(m.start(), m.end(), m.fileOffset(), m.path())).toList();
        Target target = new TargetOpener(ProfileLoader.builtIn()).open(emulated.memory(), files, Optional.empty());
        assertThat(shape(target, new HeapDiscovery(target).discover())).isEqualTo(shape(real.target, real.heap));
    }
}
