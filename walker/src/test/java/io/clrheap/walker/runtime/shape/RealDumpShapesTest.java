package io.clrheap.walker.runtime.shape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.layout.Certainty;
import io.clrheap.layout.FieldLayout;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeBuild;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MemoryRange;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.DumpImage;
import io.clrheap.walker.runtime.derive.BuildDeriver;
import io.clrheap.walker.runtime.derive.BuildDeriver.DerivedBuild;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The shapes on the real dumps of golden/real: derived from nothing but the dump, every g_dacTable index and every
 * server gc_heap offset is the one the committed profile holds (read through ProfileLoader, not copied here); the
 * profile's indexes validate, an index shifted by one does not (naming the entry); damaged or missing memory gives a
 * clear failure, never an exception.
 */
class RealDumpShapesTest {

    /** Relative to the walker module, where Maven runs the tests. */
    static final Path REAL = Path.of("../golden/real");
    private static final ProfileLoader PROFILES = ProfileLoader.builtIn();
    private static final Map<String, DumpImage> OPEN = new ConcurrentHashMap<>();

    static DumpImage image(String name) {
        Path core = REAL.resolve(name).resolve("core.xz");
        Assumptions.assumeTrue(Files.isRegularFile(core), "skipped: the real dump " + core.toAbsolutePath().normalize() + " is not there");
        return OPEN.computeIfAbsent(name, n -> {
            try {
                return DumpImage.open(core, Optional.empty());
            } catch (Exception e) {
                throw new IllegalStateException("cannot open " + core + ": " + e.getMessage(), e);
            }
        });
    }

    /** The committed profile's build of this version. */
    static RuntimeBuild profileBuild(RuntimeLayout layout, String version) {
        return layout.builds().stream().filter(b -> b.version().equals(version)).findFirst()
                .orElseThrow(() -> new AssertionError("the profile has no build " + version));
    }

    static Stream<Arguments> dumps() {
        return Stream.of(Arguments.of("net8-svr", "8.0.30", GcFlavor.SERVER), Arguments.of("net9-wks", "9.0.1", GcFlavor.WORKSTATION),
                Arguments.of("net9-svr", "9.0.1", GcFlavor.SERVER), Arguments.of("net10-svr", "10.0.9", GcFlavor.SERVER),
                Arguments.of("net10-small", "10.0.9", GcFlavor.WORKSTATION));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dumps")
    void derivesExactlyTheIndexesAndOffsetsOfTheCommittedProfile(String name, String version, GcFlavor gc) throws Exception {
        DumpImage image = image(name);
        DerivedBuild derived = new BuildDeriver(PROFILES).derive(image.memory(), image.runtime());
        assertThat(derived.identity().version()).isEqualTo(version);
        assertThat(derived.gc()).isEqualTo(gc);
        assertThat(derived.table().unresolved()).as("%s", derived.table().checks()).isEmpty();

        RuntimeLayout layout = PROFILES.load(derived.runtime(), gc);
        Map<String, Integer> profile = new HashMap<>();
        profileBuild(layout, version).dacTable().entries().forEach((n, e) -> profile.put(n, e.index()));
        Map<String, Integer> found = new HashMap<>();
        derived.table().found().forEach((e, f) -> found.put(e.dacName(), f.index()));
        assertThat(found).isEqualTo(profile);
        assertThat(derived.table().found().values()).allSatisfy(f -> assertThat(f.evidence()).isNotBlank());
        assertThat(derived.table().driftFrom(profileBuild(layout, version))).contains("the shifts account for the whole difference in length");

        if (gc == GcFlavor.SERVER) {
            GcHeapDerivation heap = derived.heap().orElseThrow();
            assertThat(heap.unresolved()).as("%s", heap.checks()).isEmpty();
            assertThat(heap.heaps()).isEqualTo(2);
            Map<String, Long> expected = new HashMap<>();
            for (FieldLayout f : layout.type("gc_heap").fields()) {
                expected.put(f.name(), f.offset());
            }
            Map<String, Long> offsets = new HashMap<>();
            heap.fields().forEach((n, f) -> offsets.put(n, f.offset()));
            assertThat(offsets).isEqualTo(expected);
            assertThat(heap.fields().get("vm_heap").certainty()).isEqualTo(Certainty.DUMP);
            assertThat(heap.fields().get("heap_number").certainty()).isEqualTo(Certainty.DUMP);
            assertThat(heap.checks()).anyMatch(c -> c.startsWith("generation_field_offsets") && c.endsWith("as the profile's generation"));
        } else {
            assertThat(derived.heap()).isEmpty();
        }
    }

    private static ShapeInput input(DumpImage image, Memory memory, RuntimeVersion version) {
        return BuildDeriver.input(memory, image.runtime(), PROFILES.load(version, GcFlavor.WORKSTATION), Map.of());
    }

    /** With the contract descriptor's globals, which the dump holds. */
    private static ShapeInput inputWithDescriptor(DumpImage image, RuntimeVersion version) {
        RuntimeLayout layout = PROFILES.load(version, GcFlavor.WORKSTATION);
        long descriptor = image.runtime().exports().apply("DotNetRuntimeContractDescriptor").orElseThrow();
        Map<String, Long> globals = ContractDescriptorGlobals.read(image.memory(), descriptor, layout).orElseThrow();
        assertThat(globals).containsKeys("ThreadStore", "AppDomain", "SyncTableEntries");
        return BuildDeriver.input(image.memory(), image.runtime(), layout, globals);
    }

    private static Map<String, Integer> profileIndexes(RuntimeVersion version, String build) {
        Map<String, Integer> indexes = new HashMap<>();
        profileBuild(PROFILES.load(version, GcFlavor.WORKSTATION), build).dacTable().entries().forEach((n, e) -> indexes.put(n, e.index()));
        return indexes;
    }

    @Test
    void theProfilesIndexesHoldTheirShapes() {
        DumpImage image = image("net9-wks");
        DacTableValidation v = new DacTableShapes(input(image, image.memory(), RuntimeVersion.NET9), Optional.empty())
                .validate(profileIndexes(RuntimeVersion.NET9, "9.0.1"));
        assertThat(v.failures()).isEmpty();
        assertThat(v.checks()).hasSize(DacEntry.values().length);
    }

    static Stream<DacEntry> net10Entries() {
        return Stream.of(DacEntry.values()).filter(e -> e != DacEntry.LOADED_IMAGE_LAYOUT_VTABLE);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("net10Entries")
    void anIndexShiftedByOneIsRefusedNamingTheEntry(DacEntry shifted) {
        DumpImage image = image("net10-svr");
        Map<String, Integer> indexes = profileIndexes(RuntimeVersion.NET10, "10.0.9");
        indexes.put(shifted.dacName(), indexes.get(shifted.dacName()) + 1);
        DacTableValidation v = new DacTableShapes(inputWithDescriptor(image, RuntimeVersion.NET10), Optional.empty()).validate(indexes);
        assertThat(v.failures()).as("%s", v.checks()).isNotEmpty();
        assertThat(v.failures().getFirst().entry()).as("%s", v.failures()).isEqualTo(shifted);
        assertThat(v.failures().getFirst().toString()).startsWith(shifted.dacName() + " [" + indexes.get(shifted.dacName()) + "]: DOES NOT HOLD: ");
    }

    @Test
    void aZeroedGcDacVarsIsAClearFailureNotAnException() throws Exception {
        DumpImage image = image("net10-svr");
        long gcDacVars = gcDacVars(image, RuntimeVersion.NET10);
        Patched memory = new Patched(image.memory()).zero(gcDacVars, 0x148);
        assertThatThrownBy(() -> new BuildDeriver(PROFILES).derive(memory, image.runtime()))
                .isInstanceOf(BuildDeriver.DeriveException.class)
                .hasMessageContaining("no g_dacTable entry of golden10 points at a GcDacVars")
                .hasMessageContaining("version 0.0");
        DacTableValidation v = new DacTableShapes(input(image, memory, RuntimeVersion.NET10), Optional.empty())
                .validate(profileIndexes(RuntimeVersion.NET10, "10.0.9"));
        assertThat(v.failures()).extracting(DacTableValidation.EntryCheck::entry).contains(DacEntry.GC_DAC_GLOBALS);
        assertThat(v.failures().stream().filter(c -> c.entry() == DacEntry.GC_DAC_GLOBALS).findFirst().orElseThrow().text())
                .contains("version 0.0");
    }

    @Test
    void aThreadStoreThatMiscountsItsThreadsIsNotFoundAndSaysWhy() {
        DumpImage image = image("net8-svr");
        RuntimeLayout layout = PROFILES.load(RuntimeVersion.NET8, GcFlavor.WORKSTATION);
        long store = image.memory().readPointer(variable(image, RuntimeVersion.NET8, "ThreadStore::s_pThreadStore"));
        Patched memory = new Patched(image.memory()).putInt(store + layout.offset("ThreadStore", "ThreadCount"), 2);
        DacTableDerivation d = new DacTableShapes(input(image, memory, RuntimeVersion.NET8), Optional.empty()).derive(DacTableShapes.entriesOf(layout));
        assertThat(d.unresolved()).containsKey(DacEntry.THREAD_STORE);
        assertThat(d.unresolved().get(DacEntry.THREAD_STORE)).contains("no index").contains("holds it");
        // the entries whose shape needs the thread list say so; the rest are found as before
        assertThat(d.unresolved()).containsKey(DacEntry.FINALIZER_THREAD);
        assertThat(d.indexOf(DacEntry.GC_DAC_GLOBALS)).hasValue(20);
        assertThat(d.indexOf(DacEntry.FREE_OBJECT_METHOD_TABLE)).hasValue(54);
    }

    @Test
    void aThreadListThatLoopsIsBounded() {
        DumpImage image = image("net8-svr");
        RuntimeLayout layout = PROFILES.load(RuntimeVersion.NET8, GcFlavor.WORKSTATION);
        long store = image.memory().readPointer(variable(image, RuntimeVersion.NET8, "ThreadStore::s_pThreadStore"));
        long first = image.memory().readPointer(store + layout.offset("ThreadStore", "FirstThreadLink"));
        Patched memory = new Patched(image.memory()).putLong(first, first); // the first thread links to itself
        DacTableValidation v = new DacTableShapes(input(image, memory, RuntimeVersion.NET8), Optional.empty())
                .validate(profileIndexes(RuntimeVersion.NET8, "8.0.30"));
        assertThat(v.failures()).extracting(DacTableValidation.EntryCheck::entry).contains(DacEntry.THREAD_STORE);
        assertThat(v.failures().getFirst().text()).contains("goes on past ThreadCount");
    }

    @ParameterizedTest
    @ValueSource(strings = {"free", "gcdacvars"})
    void memoryMissingFromTheDumpIsReportedWithItsAddress(String which) {
        DumpImage image = image("net9-wks");
        long hidden = which.equals("free") ? image.memory().readPointer(variable(image, RuntimeVersion.NET9, "g_pFreeObjectMethodTable"))
                : gcDacVars(image, RuntimeVersion.NET9);
        Memory memory = new Hiding(image.memory(), hidden & ~0xfffL, 0x1000);
        DacTableValidation v = new DacTableShapes(input(image, memory, RuntimeVersion.NET9), Optional.empty())
                .validate(profileIndexes(RuntimeVersion.NET9, "9.0.1"));
        DacEntry entry = which.equals("free") ? DacEntry.FREE_OBJECT_METHOD_TABLE : DacEntry.GC_DAC_GLOBALS;
        assertThat(v.failures()).extracting(DacTableValidation.EntryCheck::entry).contains(entry);
        assertThat(v.failures().stream().filter(c -> c.entry() == entry).findFirst().orElseThrow().text())
                .startsWith("cannot read: ").contains(String.format("0x%x", hidden).substring(0, 10));
    }

    @Test
    void aTableOfAnotherBuildIsExplainedAgainstTheNearestKnownOne() throws Exception {
        // net8-svr's table read as if it were 8.0.27's (156 entries): 8.0.30 inserts one entry after g_pPredefinedArrayTypes
        DumpImage image = image("net8-svr");
        DerivedBuild derived = new BuildDeriver(PROFILES).derive(image.memory(), image.runtime());
        RuntimeLayout layout = PROFILES.load(RuntimeVersion.NET8, GcFlavor.WORKSTATION);
        RuntimeBuild fake = new RuntimeBuild("8.0.27", "", "", new io.clrheap.layout.DacTable(156, moved(profileBuild(layout, "8.0.30"), "Module__vtAddr", -1)),
                profileBuild(layout, "8.0.30").provenance(), "");
        List<String> drift = derived.table().driftFrom(fake);
        assertThat(drift).contains("157 entries against 8.0.27's 156 (+1)", "moved by +1: Module__vtAddr 103 -> 104",
                "1 entry added between g_pPredefinedArrayTypes (58) and Module__vtAddr (104)", "the shifts account for the whole difference in length");
    }

    private static Map<String, io.clrheap.layout.DacTable.DacTableEntry> moved(RuntimeBuild build, String name, int by) {
        Map<String, io.clrheap.layout.DacTable.DacTableEntry> out = new HashMap<>();
        build.dacTable().entries().forEach((n, e) -> out.put(n, n.equals(name) ? new io.clrheap.layout.DacTable.DacTableEntry(n, e.index() + by, e.provenance()) : e));
        return out;
    }

    private static long variable(DumpImage image, RuntimeVersion version, String entry) {
        int index = profileIndexes(version, PROFILES.load(version, GcFlavor.WORKSTATION).primaryBuild().version()).get(entry);
        return image.memory().readPointer(image.runtime().module().dacTable() + 8L * index);
    }

    private static long gcDacVars(DumpImage image, RuntimeVersion version) {
        return image.memory().readPointer(variable(image, version, "g_gcDacGlobals"));
    }

    /** A dump's memory with some bytes changed. */
    static final class Patched implements Memory {
        private final Memory inner;
        private final Map<Long, Byte> patches = new HashMap<>();

        Patched(Memory inner) {
            this.inner = inner;
        }

        Patched zero(long address, int length) {
            for (int i = 0; i < length; i++) {
                patches.put(address + i, (byte) 0);
            }
            return this;
        }

        Patched putLong(long address, long value) {
            for (int i = 0; i < 8; i++) {
                patches.put(address + i, (byte) (value >>> (8 * i)));
            }
            return this;
        }

        Patched putInt(long address, int value) {
            for (int i = 0; i < 4; i++) {
                patches.put(address + i, (byte) (value >>> (8 * i)));
            }
            return this;
        }

        private long read(long address, int n) {
            byte[] b = new byte[n];
            read(address, b, 0, n);
            long v = 0;
            for (int i = n - 1; i >= 0; i--) {
                v = (v << 8) | (b[i] & 0xff);
            }
            return v;
        }

        @Override
        public byte readByte(long address) {
            return (byte) read(address, 1);
        }

        @Override
        public short readShort(long address) {
            return (short) read(address, 2);
        }

        @Override
        public int readInt(long address) {
            return (int) read(address, 4);
        }

        @Override
        public long readLong(long address) {
            return read(address, 8);
        }

        @Override
        public void read(long address, byte[] destination, int offset, int length) {
            inner.read(address, destination, offset, length);
            for (int i = 0; i < length; i++) {
                Byte p = patches.get(address + i);
                if (p != null) {
                    destination[offset + i] = p;
                }
            }
        }

        @Override
        public boolean contains(long address, long length) {
            return inner.contains(address, length);
        }

        @Override
        public List<MemoryRange> ranges() {
            return inner.ranges();
        }

        @Override
        public String describe() {
            return inner.describe();
        }
    }

    /** A dump's memory with one range taken out, as a dump that did not capture it. */
    static final class Hiding implements Memory {
        private final Memory inner;
        private final MemoryRange hidden;

        Hiding(Memory inner, long start, long length) {
            this.inner = inner;
            this.hidden = new MemoryRange(start, length);
        }

        private void check(long address, long length) {
            for (long a = address; a < address + length; a++) {
                if (hidden.contains(a)) {
                    throw new MissingMemoryException(address, length, describe(), MissingMemoryException.Reason.NOT_MAPPED);
                }
            }
        }

        @Override
        public byte readByte(long address) {
            check(address, 1);
            return inner.readByte(address);
        }

        @Override
        public short readShort(long address) {
            check(address, 2);
            return inner.readShort(address);
        }

        @Override
        public int readInt(long address) {
            check(address, 4);
            return inner.readInt(address);
        }

        @Override
        public long readLong(long address) {
            check(address, 8);
            return inner.readLong(address);
        }

        @Override
        public void read(long address, byte[] destination, int offset, int length) {
            check(address, length);
            inner.read(address, destination, offset, length);
        }

        @Override
        public boolean contains(long address, long length) {
            try {
                check(address, length);
            } catch (MissingMemoryException e) {
                return false;
            }
            return inner.contains(address, length);
        }

        @Override
        public List<MemoryRange> ranges() {
            List<MemoryRange> out = new ArrayList<>();
            for (MemoryRange r : inner.ranges()) {
                out.add(r);
            }
            return out;
        }

        @Override
        public String describe() {
            return inner.describe();
        }
    }
}
