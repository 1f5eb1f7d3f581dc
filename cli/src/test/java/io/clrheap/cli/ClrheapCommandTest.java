package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;

import io.clrheap.cli.ClrheapCommand.Outcome;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.profile.ProfileLoader;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClrheapCommandTest {

    @Test
    void helpListsTheCommandsAndTheTestCommand() {
        Outcome r = run("--help");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("demo", "layout", "./clrheap test");
    }

    @Test
    void versionNamesClrheapAndTheKnownBuilds() {
        Outcome r = run("--version");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).startsWith("clrheap ").contains("8.0.30", "9.0.1", "10.0.9");
    }

    @Test
    void layoutPrintsTheHeapSegmentTableOfNet8Server() {
        Outcome r = run("layout", "--runtime", "net8", "--gc", "server", "--struct", "heap_segment");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("heap_segment — size 0xb8 (184)");
        assertThat(r.out()).containsPattern("\\n  next +0x30 +8 +pointer +dump: E:all\\n");
        assertThat(r.out()).containsPattern("\\n  heap +0x40 +8 +pointer +dump: E:net8");
        assertThat(r.out()).contains("DACH     dotnet/runtime:src/coreclr/gc/gcinterface.dac.h");
    }

    @Test
    void layoutOfWorkstationHasNoOwningHeapInHeapSegment() {
        Outcome r = run("layout", "--runtime", "net10", "--gc", "wks", "--struct", "heap_segment");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("size 0xa8").doesNotContainPattern("\\n  heap ");
    }

    @Test
    void anUnknownStructureIsAUsageErrorListingTheKnownOnes() {
        Outcome r = run("layout", "--struct", "heap_segmnt");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("no structure 'heap_segmnt'", "heap_segment", "generation");
        assertThat(r.err()).doesNotContain("at io.clrheap");
    }

    @Test
    void anUnknownRuntimeIsRejectedWithTheKnownOnes() {
        Outcome r = run("layout", "--runtime", "net7");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("unknown runtime 'net7'", "net8, net9, net10");
    }

    @Test
    void jsonOutputIsAProfileThatLoadsBackToTheSameLayout() {
        Outcome r = run("layout", "--runtime", "net10", "--gc", "workstation", "--format", "json");
        assertThat(r.exitCode()).isZero();
        RuntimeLayout original = ProfileLoader.builtIn().load("net10.0", GcFlavor.WORKSTATION);
        RuntimeLayout reread = new ProfileLoader(name -> name.equals("printed") ? Optional.of(r.out()) : Optional.empty())
                .load("printed", GcFlavor.WORKSTATION);
        assertThat(reread.types()).isEqualTo(original.types());
        assertThat(Map.copyOf(reread.constants())).isEqualTo(Map.copyOf(original.constants()));
    }

    @Test
    void constantsListFlagBitsWithTheirSources() {
        Outcome r = run("layout", "--runtime", "net9", "--constants");
        assertThat(r.out()).containsPattern("heap_segment\\.flags\\.readonly +1 +0x1 +dump: E:all");
        assertThat(r.out()).containsPattern("IGCHeap\\.DiagDescrGenerations\\.slot +69 +0x45");
    }

    @Test
    void dacTableListsEachBuildsIndexes() {
        Outcome r = run("layout", "--runtime", "net8", "--dac-table");
        assertThat(r.out()).contains("g_dacTable of 8.0.30: 157 entries", "g_dacTable of 8.0.27: 156 entries");
        assertThat(r.out()).containsPattern("g_gcDacGlobals +20 +0xa0");
    }

    @Test
    void demoWritesEveryFormatWalksEachAndAgreesWithTheAnswerKey(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        Outcome r = run("demo", "--out", dir.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("wrote " + dir.resolve("default-net8-server.core"), "wrote " + dir.resolve("default-net8-server.answer"), "Statistics:",
                "System.String", "Free", "default-net8-server.core (ELF core): walker agrees with the answer key: ",
                "default-net8-server.dmp (minidump): walker agrees with the answer key: ", "default-net8-server.clrheap.tar.xz (fixture bundle): walker agrees with the answer key: ");
        assertThat(dir.resolve("default-net8-server.answer").resolve("objects.tsv")).exists();
    }

    /** Issue 30: the demo of a tool whose point is needing no DAC ended with "not checked: no DAC", and sent to --eeheap for allocation contexts it no longer shows. */
    @Test
    void demoEndsWithWhatToDoNextNotWithWhatIsMissing(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        Outcome r = run("demo", "--out", dir.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).doesNotContain("not checked: no DAC", "allocation contexts)")
                .contains("Next: ./clrheap walk " + dir.resolve("default-net8-server.core") + " --eeheap   (heaps and their regions by generation");
    }

    @Test
    void demoRunsOnEveryRuntime(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        for (String v : new String[] {"net9", "net10"}) {
            for (String gc : new String[] {"server", "workstation"}) {
                Outcome r = run("demo", "--runtime", v, "--gc", gc, "--out", dir.resolve(v + gc).toString());
                assertThat(r.exitCode()).as(v + " " + gc + ": " + r.err()).isZero();
                assertThat(r.out()).contains("walker agrees with the answer key").doesNotContain("DISAGREES");
                // .NET 9 has no minidump: no real Windows .NET 9 gave its layouts
                assertThat(r.out().contains("No minidump: clrheap has no Windows layouts of net9")).isEqualTo(v.equals("net9"));
                assertThat(r.out().contains(".dmp (minidump): walker agrees with the answer key")).isEqualTo(!v.equals("net9"));
            }
        }
    }

    @Test
    void generateWritesTheFilesItNamesAndTheSameTwiceGivesTheSameBytes(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        Outcome first = run("generate", "--scenario", "every-edge", "--runtime", "net9", "--out", dir.resolve("a").toString());
        Outcome second = run("generate", "--scenario", "every-edge", "--runtime", "net9", "--out", dir.resolve("b").toString());
        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(first.out()).contains("wrote " + dir.resolve("a").resolve("every-edge-net9-server.core"), "every-edge-net9-server.answer/");
        try (var files = java.nio.file.Files.walk(dir.resolve("a"))) {
            for (java.nio.file.Path f : files.filter(java.nio.file.Files::isRegularFile).toList()) {
                java.nio.file.Path twin = dir.resolve("b").resolve(dir.resolve("a").relativize(f));
                assertThat(java.nio.file.Files.mismatch(f, twin)).as("%s differs from %s", f, twin).isEqualTo(-1L);
            }
        }
        assertThat(second.exitCode()).isZero();
    }

    @Test
    void generateTakesAScenarioFileAndOverrides(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path json = dir.resolve("mine.json");
        java.nio.file.Files.writeString(json, run("scenarios", "--json", "four-heaps").out().replace("\"four-heaps\"", "\"mine\""));
        Outcome r = run("generate", "--scenario", json.toString(), "--heaps", "3", "--seed", "9", "--format", "elf", "--out", dir.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("mine-net8-server.core");
        Outcome walk = run("walk", dir.resolve("mine-net8-server.core").toString(), "--eeheap", "-q");
        assertThat(walk.out()).contains("Number of GC Heaps: 3");
    }

    @Test
    void generateRefusesABadScenarioWithExitCode3AndAnUnknownFormatAsUsage(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path bad = dir.resolve("bad.json");
        java.nio.file.Files.writeString(bad, "{\"name\": \"x\"}");
        Outcome r = run("generate", "--scenario", bad.toString(), "--out", dir.toString());
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.err()).contains(bad + ": 'runtime' is missing");
        assertThat(run("generate", "--scenario", "no-such-thing", "--out", dir.toString()).err()).contains("no built-in scenario named 'no-such-thing'");
        Outcome format = run("generate", "--scenario", "default", "--format", "pdf", "--out", dir.toString());
        assertThat(format.exitCode()).isEqualTo(2);
        assertThat(format.err()).contains("unknown format 'pdf'");
    }

    @Test
    void scenariosListsEveryBuiltInScenarioWithItsDescription() {
        Outcome r = run("scenarios");
        assertThat(r.exitCode()).isZero();
        for (var s : io.clrheap.emulator.Scenarios.all()) {
            assertThat(r.out()).contains(s.name() + " ").contains(s.description());
        }
    }

    @Test
    void walkReadsTheTypeNamesAFixtureCarries(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        run("generate", "--scenario", "user-types", "--out", dir.toString(), "-q");
        Outcome r = run("walk", dir.resolve("user-types-net8-server.core").toString(), "--stat", "-q");
        assertThat(r.out()).contains("Shop.Order[]", "System.Double[,,]").doesNotContain("Unknown");
    }

    @Test
    void theAnswerKeyIsTheSameBytesWhateverTheDefaultLocale(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.util.Locale before = java.util.Locale.getDefault();
        try {
            run("generate", "--scenario", "default", "--format", "elf", "--out", dir.resolve("root").toString(), "-q");
            java.util.Locale.setDefault(java.util.Locale.forLanguageTag("ar-EG"));
            Outcome r = run("generate", "--scenario", "default", "--format", "elf", "--out", dir.resolve("ar").toString(), "-q");
            // ASCII digits grouped by commas (Locale.ROOT), not Arabic-Indic digits: what a script parsing the line expects
            assertThat(r.out()).containsPattern("default-net8-server\\.core \\(\\d{1,3}(,\\d{3})+ bytes\\)");
        } finally {
            java.util.Locale.setDefault(before);
        }
        for (String file : io.clrheap.generator.answer.AnswerKeyWriter.FILES) {
            assertThat(java.nio.file.Files.mismatch(dir.resolve("root/default-net8-server.answer").resolve(file), dir.resolve("ar/default-net8-server.answer").resolve(file)))
                    .as(file).isEqualTo(-1L);
        }
    }

    @Test
    void generatingAgainReplacesTheAnswerKeyAndLeavesNoStaleOrPartialFiles(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        run("generate", "--scenario", "default", "--out", dir.toString(), "-q");
        java.nio.file.Files.writeString(dir.resolve("default-net8-server.answer/notes.txt"), "stale");
        assertThat(run("generate", "--scenario", "default", "--out", dir.toString(), "-q").exitCode()).isZero();
        try (var files = java.nio.file.Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted().toList())
                    .containsExactly("default-net8-server.answer", "default-net8-server.clrheap.tar.xz", "default-net8-server.core", "default-net8-server.dmp");
        }
        try (var files = java.nio.file.Files.list(dir.resolve("default-net8-server.answer"))) {
            assertThat(files.map(p -> p.getFileName().toString()).toList())
                    .containsExactlyInAnyOrderElementsOf(io.clrheap.generator.answer.AnswerKeyWriter.FILES);
        }
        for (String f : new String[] {"default-net8-server.core", "default-net8-server.dmp", "default-net8-server.clrheap.tar.xz"}) {
            assertThat(java.nio.file.attribute.PosixFilePermissions.toString(java.nio.file.Files.getPosixFilePermissions(dir.resolve(f))))
                    .as(f).isEqualTo("rw-r--r--");
        }
    }

    @Test
    void aScenarioFileThatIsNotTextOrNamesABadTypeIsRefusedBeforeAnythingIsWritten(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path binary = dir.resolve("binary.json");
        java.nio.file.Files.write(binary, new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1});
        Outcome r = run("generate", "--scenario", binary.toString(), "--out", dir.resolve("out").toString());
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.err()).contains("not UTF-8 text");
        java.nio.file.Path spaced = dir.resolve("spaced.json");
        java.nio.file.Files.writeString(spaced, run("scenarios", "--json", "user-types").out().replace("\"Shop.Money\"", "\"Shop.Money \""));
        Outcome bad = run("generate", "--scenario", spaced.toString(), "--out", dir.resolve("out").toString());
        assertThat(bad.exitCode()).isEqualTo(3);
        assertThat(bad.err()).contains("no spaces at either end");
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void demoRefusesAnOutputThatIsAFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("afile"), "");
        Outcome r = run("demo", "--out", file.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("is a file, not a folder");
    }
}
