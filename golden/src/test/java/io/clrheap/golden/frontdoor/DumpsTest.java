package io.clrheap.golden.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.Scenarios;
import io.clrheap.generator.ClrheapVersion;
import io.clrheap.generator.answer.AnswerKeyCheck;
import io.clrheap.generator.fixture.FixtureFormat;
import io.clrheap.generator.fixture.FixtureProgress;
import io.clrheap.generator.fixture.FixtureWriter;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.OpenOptions;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.runtime.TargetException;
import io.clrheap.walker.source.DumpFormatException;
import io.clrheap.walker.source.elf.MappedFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The front door: {@link Dumps} opens every format the walker reads, and what it opens walks to the answer key. */
class DumpsTest {

    @TempDir
    static Path dir;

    /** .NET 10: a build of every format (there is no .NET 9 minidump: no Windows layout of 9). */
    private static final Scenario SCENARIO = Scenarios.named("default").orElseThrow().on(RuntimeVersion.NET10, GcFlavor.SERVER);

    @BeforeAll
    static void writeEveryFormat() throws IOException {
        FixtureWriter.write(SCENARIO, EnumSet.allOf(FixtureFormat.class), dir, ClrheapVersion.current(), FixtureProgress.NONE);
    }

    private static Path file(FixtureFormat format) {
        return dir.resolve(SCENARIO.name() + format.suffix());
    }

    @Test
    void everyFixtureFormatOpensThroughTheFrontDoorAndWalksToItsAnswerKey() throws Exception {
        Map<FixtureFormat, String> formats = Map.of(FixtureFormat.ELF, "ELF core", FixtureFormat.MINIDUMP, "minidump",
                FixtureFormat.BUNDLE, "fixture bundle");
        for (var expected : formats.entrySet()) {
            try (DumpSession dump = Dumps.open(file(expected.getKey()))) {
                assertThat(dump.format()).isEqualTo(expected.getValue());
                assertThat(dump.target().version()).isEqualTo("10.0.9");
                assertThat(dump.typeNames().isEmpty()).as("a fixture carries its type names").isFalse();
                AnswerKeyCheck.Result result = AnswerKeyCheck.check(dump, dir.resolve(SCENARIO.name() + ".answer"));
                assertThat(result.first()).as(expected.getValue()).isEmpty();
                assertThat(result.agrees()).isTrue();
            }
        }
    }

    @Test
    void theFormatIsReadFromTheBytesNotTheName() throws Exception {
        Path renamed = Files.copy(file(FixtureFormat.MINIDUMP), dir.resolve("looks-like-a.core"));
        try (DumpSession dump = Dumps.open(renamed)) {
            assertThat(dump.format()).isEqualTo("minidump");
        }
    }

    @Test
    void aRealXzCoreOpensAsAnElfCoreWhoseTrimmedModulesNameNothing() throws Exception {
        // tests run in the golden module's folder, where the real dumps are
        try (DumpSession dump = Dumps.open(Path.of("real", "net9-wks", "core.xz"))) {
            assertThat(dump.format()).isEqualTo("ELF core");
            assertThat(dump.target().version()).isEqualTo("9.0.1");
            assertThat(dump.target().gc()).isEqualTo(GcFlavor.WORKSTATION);
            assertThat(dump.typeNames().size()).as("no names carried by the file").isZero();
            assertThat(dump.heap().regionsByAddress()).isNotEmpty();
            assertThat(dump.heap().problems()).isEmpty();
            // names come from metadata, which this trimmed dump lacks: nothing is named, and the modules say why
            long free = dump.heap().freeMethodTable();
            long string = dump.target().globalPointer("g_pStringClass");
            assertThat(dump.typeNames().name(string)).isEmpty();
            assertThat(dump.typeNames().display(free, free)).isEqualTo("Free");
            assertThat(dump.typeNames().modulesWithoutMetadata()).extracting(m -> m.file()).contains("System.Private.CoreLib.dll");
        }
    }

    @Test
    void aRealCoreWithItsImagesNamesTypesFromMetadata() throws Exception {
        try (DumpSession dump = Dumps.open(Path.of("real", "net9-withheap", "core.xz"))) {
            long string = dump.target().globalPointer("g_pStringClass");
            assertThat(dump.typeNames().name(string)).contains("System.String");
            assertThat(dump.metadataTypeNames().name(string)).contains("System.String");
            assertThat(dump.typeNames().modulesWithoutMetadata()).isEmpty();
        }
    }

    @Test
    void theHeapIsDiscoveredOnceAndKept() throws Exception {
        try (DumpSession dump = Dumps.open(file(FixtureFormat.ELF))) {
            DiscoveredHeap first = dump.heap();
            assertThat(dump.heap()).isSameAs(first);
            assertThat(dump.walker().regions()).isEqualTo(first.regionsByAddress());
        }
    }

    @Test
    void aFileThatIsNoDumpIsAFormatErrorNamingTheFile() throws Exception {
        Path junk = Files.writeString(dir.resolve("notes.txt"), "not a dump at all, just some text\n".repeat(10));
        assertThatThrownBy(() -> Dumps.open(junk)).isInstanceOf(DumpFormatException.class).hasMessageContaining("notes.txt");
    }

    @Test
    void aDumpWithoutTheRuntimeModulesHeadersSaysSoAndNamesTheWayOut() {
        assertThatThrownBy(() -> Dumps.open(Path.of("real", "net8-nomodule", "core.xz")))
                .isInstanceOfSatisfying(TargetException.class, e -> assertThat(e.kind()).isEqualTo(TargetException.Kind.MODULE_HEADERS_MISSING));
    }

    @Test
    void anEmulatedProcessOpensThroughDumpsOfAndFindsTheSameRegionsInProcessAsThroughGDacTable() throws Exception {
        EmulatedRuntime process = new RuntimeBuilder().build(SCENARIO);
        List<MappedFile> files = process.mappings().stream().map(m -> new MappedFile(m.start(), m.end(), m.fileOffset(), m.path())).toList();
        DumpSession dumpPath = Dumps.of(process.memory(), files, "emulated process", "default", process.typeNames(), OpenOptions.DEFAULT);
        var calls = process.nativeCalls();
        DumpSession inProcess = Dumps.of(calls.memory(), files, "emulated process", "default", process.typeNames(),
                OpenOptions.DEFAULT.withNativeCalls(calls));
        assertThat(inProcess.inProcessRoute()).isPresent();
        assertThat(dumpPath.inProcessRoute()).isEmpty();
        assertThat(inProcess.heap().regionsByAddress()).extracting(r -> r.mem() + "-" + r.end())
                .containsExactlyElementsOf(dumpPath.heap().regionsByAddress().stream().map(r -> r.mem() + "-" + r.end()).toList());
        long[] objects = {0};
        inProcess.walk((address, mt, size, region) -> objects[0]++);
        assertThat(objects[0]).isEqualTo(process.groundTruth().objectCount());
    }
}
