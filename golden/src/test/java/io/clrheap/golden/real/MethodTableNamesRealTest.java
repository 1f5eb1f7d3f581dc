package io.clrheap.golden.real;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.dac.DacEngine;
import io.clrheap.dac.DacHeap;
import io.clrheap.dac.TestDac;
import io.clrheap.dac.walk.DacWalkKind;
import io.clrheap.walker.metadata.EcmaMetadata;
import io.clrheap.walker.metadata.ImageLayoutKind;
import io.clrheap.walker.metadata.MethodTableNames;
import io.clrheap.walker.metadata.ModuleMetadata;
import io.clrheap.walker.metadata.TypeNameLookup;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Issue 19: every distinct MethodTable of live-objects.txt gets exactly the runtime's own name (in the GCBulkType
 * spelling of live-objects.txt, and in the DAC's, which Microsoft's DAC checks) from the ECMA-335 metadata of its module in the dump; where the images are not in the dump
 * (net9-wks) the reader says which modules are missing and names nothing, without an exception.
 */
class MethodTableNamesRealTest {

    static final List<String> WITH_IMAGES = List.of("net8-svr", "net9-withheap", "net10-svr", "net10-compact", "net10-small");

    @ParameterizedTest
    @FieldSource("WITH_IMAGES")
    void everyLiveMethodTableIsNamedAsTheRuntimeNamesIt(String name) {
        RealDump real = RealDump.of(name);
        MethodTableNames names = new MethodTableNames(real.target.memory(), real.target.layout());
        Map<Long, String> expected = distinctMethodTables(real);
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<Long, String> e : expected.entrySet()) {
            TypeNameLookup got = names.lookup(e.getKey());
            if (!(got instanceof TypeNameLookup.Named named) || !e.getValue().equals(named.bulkTypeName())) {
                wrong.add(String.format("0x%x want %s got %s", e.getKey(), e.getValue(), got));
            }
        }
        assertThat(wrong).as(name + ": " + expected.size() + " distinct MethodTables").isEmpty();
        assertThat(expected).hasSizeGreaterThan(40);
        assertThat(names.modules()).allMatch(ModuleMetadata::found);
    }

    /**
     * The DAC's spelling, which SOS prints, equals what Microsoft's 9.0.1 DAC's {@code GetMethodTableName} answers for
     * every MethodTable of the heap (nested {@code Outer+Inner}, assembly-qualified generic arguments, {@code T[,]}).
     */
    @Test
    void everyMethodTableIsNamedAsMicrosoftsDacNamesIt() throws Exception {
        RealDump real = RealDump.of("net9-withheap");
        DacHeap heap = DacEngine.open(TestDac.path()).walk(real.folder.resolve("core.xz"), real.target, DacWalkKind.SOS,
                (address, mt, size, region) -> { }, DacEngine.DEFAULT_TIMEOUT);
        long free = real.heap.freeMethodTable();
        MethodTableNames names = new MethodTableNames(real.target.memory(), real.target.layout());
        List<String> wrong = new ArrayList<>();
        heap.typeNames().forEach((mt, dacName) -> {
            if (mt != free && !dacName.equals(names.lookup(mt).nameOrNull())) {
                wrong.add(String.format("0x%x DAC %s, clrheap %s", mt, dacName, names.lookup(mt)));
            }
        });
        assertThat(heap.typeNames()).as("names the DAC gave").hasSizeGreaterThan(100)
                .containsValues("System.Int32[,]", "System.Collections.Generic.Dictionary`2[[System.String, System.Private.CoreLib],[System.Object, System.Private.CoreLib]]");
        assertThat(wrong).isEmpty();
    }

    @Test
    void singleFileCoreLibIsReadFromItsFlatLayout() {
        RealDump real = RealDump.of("net10-small");
        MethodTableNames names = new MethodTableNames(real.target.memory(), real.target.layout());
        distinctMethodTables(real).keySet().forEach(names::lookup);
        assertThat(names.modules()).extracting(m -> m.location().kind()).contains(ImageLayoutKind.FLAT, ImageLayoutKind.MAPPED);
    }

    @Test
    void withoutImagesTheMissingModulesAreReportedAndNothingIsNamed() {
        RealDump real = RealDump.of("net9-wks");
        MethodTableNames names = new MethodTableNames(real.target.memory(), real.target.layout());
        Map<Long, String> expected = distinctMethodTables(real);
        for (long mt : expected.keySet()) {
            TypeNameLookup got = names.lookup(mt);
            assertThat(got).as("0x%x", mt).isInstanceOf(TypeNameLookup.Unnamed.class);
            assertThat(((TypeNameLookup.Unnamed) got).reason()).contains("has no metadata in the dump");
            assertThat(((TypeNameLookup.Unnamed) got).corrupt()).as("a trimmed image is missing, not corrupt").isFalse();
        }
        assertThat(names.modules()).isNotEmpty().noneMatch(ModuleMetadata::found)
                .allSatisfy(m -> {
                    assertThat(m.address()).isNotZero();
                    assertThat(m.problem()).contains("not in");
                });
    }

    @Test
    void corruptMetadataIsReportedWithItsAddressNotThrown() {
        RealDump real = RealDump.of("net10-small");
        long string = distinctMethodTables(real).entrySet().stream().filter(e -> e.getValue().equals("System.String"))
                .findFirst().orElseThrow().getKey();
        MethodTableNames clean = new MethodTableNames(real.target.memory(), real.target.layout());
        long module = real.target.memory().readPointer(string + real.target.layout().offset("MethodTable", "Module"));
        long root = clean.module(module).location().root();
        EcmaMetadata md = EcmaMetadata.read(real.target.memory(), root);
        int rid = (int) (real.target.memory().readU32(string + 8) >>> 8);

        // a version length beyond what the root allows: the module has no metadata, named at the length's address
        MethodTableNames badRoot = new MethodTableNames(new PatchedMemory(real.target.memory()).putInt(root + 12, 0x100000), real.target.layout());
        TypeNameLookup got = badRoot.lookup(string);
        assertThat(got).isInstanceOf(TypeNameLookup.Unnamed.class);
        assertThat(badRoot.module(module).address()).isEqualTo(root + 12);
        assertThat(badRoot.module(module).problem()).contains("version length");

        // a TypeDef name index beyond the #Strings heap (CoreLib's heap is large: 4-byte indexes)
        assertThat(md.rowSize(EcmaMetadata.TYPE_DEF)).isGreaterThanOrEqualTo(4 + 4 + 4 + 2 + 2 + 2);
        long nameCell = md.tableStart(EcmaMetadata.TYPE_DEF) + (long) (rid - 1) * md.rowSize(EcmaMetadata.TYPE_DEF) + 4;
        MethodTableNames badString = new MethodTableNames(new PatchedMemory(real.target.memory()).putInt(nameCell, 0x7fffffff), real.target.layout());
        TypeNameLookup bad = badString.lookup(string);
        assertThat(bad).isInstanceOf(TypeNameLookup.Unnamed.class);
        assertThat(((TypeNameLookup.Unnamed) bad).reason()).contains("corrupt metadata", "#Strings index");
        assertThat(((TypeNameLookup.Unnamed) bad).address()).as("the corrupt cell").isEqualTo(nameCell);
        assertThat(((TypeNameLookup.Unnamed) bad).corrupt()).isTrue();
        assertThat(((TypeNameLookup.Unnamed) got).corrupt()).isTrue();

        assertThat(clean.lookup(string).nameOrNull()).isEqualTo("System.String");
    }

    private static Map<Long, String> distinctMethodTables(RealDump real) {
        Map<Long, String> out = new LinkedHashMap<>();
        for (RealDump.LiveObject o : real.liveObjects()) {
            out.putIfAbsent(o.mt(), o.type());
        }
        return out;
    }
}
