package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import io.clrheap.emulator.Scenarios;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.generator.fixture.FixtureName;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code generate} builds a cross product of scenarios, runtimes and GC flavours in one call, each fixture under its own name. */
class GenerateBatchTest {

    @TempDir
    Path tmp;

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** A scenario file the estimate refuses at once (a billion objects), before anything is built. */
    private Path billion() throws IOException {
        return Files.writeString(tmp.resolve("billion.json"), """
                { "name" : "billion", "description" : "more than any machine holds", "runtime" : "net8", "gc" : "server",
                  "heaps" : 1, "threads" : 1,
                  "objects" : { "gen2" : 1000000000, "gen1" : 0, "gen0" : 0, "loh" : 0, "poh" : 0, "frozenStrings" : 0 },
                  "garbage" : 0, "handlesPerKind" : 0, "features" : [ ], "types" : [ ], "program" : [ ], "seed" : 1 }
                """);
    }

    @Test
    void twoScenariosOnTwoRuntimesAndTwoGcsWriteEightFixtureSetsThatAgreeWithTheirAnswerKeys() throws IOException {
        Path out = tmp.resolve("out");
        Outcome r = run("generate", "--scenario", "min-object,empty-string", "--runtime", "net8,net10", "--gc", "all",
                "--format", "bundle", "--out", out.toString(), "-q");
        assertThat(r.exitCode()).as(r.err()).isZero();
        List<String> expected = Stream.of("min-object", "empty-string").flatMap(s -> Stream.of("net8", "net10")
                .flatMap(rt -> Stream.of("server", "workstation").flatMap(gc -> Stream.of(
                        s + "-" + rt + "-" + gc + ".clrheap.tar.xz", s + "-" + rt + "-" + gc + ".answer")))).sorted().toList();
        assertThat(names(out)).containsExactlyElementsOf(expected);
        assertThat(r.out()).contains("8 fixtures: 8 agree with their answer key, 0 failed;");
    }

    @Test
    void theFixturesOfOneScenarioOnTwoRuntimesDifferAsTheirRuntimesDo() throws IOException {
        Path out = tmp.resolve("out");
        assertThat(run("generate", "--scenario", "min-object", "--runtime", "net8,net9", "--format", "bundle", "--out", out.toString(), "-q")
                .exitCode()).isZero();
        assertThat(Files.readString(out.resolve("min-object-net8-server.answer/fixture.txt")))
                .isNotEqualTo(Files.readString(out.resolve("min-object-net9-server.answer/fixture.txt")));
    }

    @Test
    void aSingleFixtureIsNamedByScenarioRuntimeAndGcToo() throws IOException {
        Path out = tmp.resolve("out");
        Outcome r = run("generate", "--scenario", "min-object", "--format", "bundle", "--out", out.toString(), "-q");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(names(out)).containsExactly("min-object-net8-server.answer", "min-object-net8-server.clrheap.tar.xz");
        assertThat(r.out()).contains("1 fixture: 1 agrees with its answer key, 0 failed;");
    }

    @Test
    void allIsEveryBuiltInEverydayScenarioAndTheSegmentsGcsInTheirOrder() throws IOException {
        assertThat(ScenarioOption.resolveEach(List.of("all"))).extracting(Scenario::name)
                .containsExactlyElementsOf(Scenarios.corpus().stream().map(Scenario::name).toList())
                .contains("segments", "trap-generation-starts")
                .doesNotContain("large", "scale-64");
    }

    @Test
    void allRuntimesAndAllGcsAreTheCrossProductScenarioByScenario() throws IOException {
        FixtureSelection s = FixtureSelection.of(ScenarioOption.resolveEach(List.of("default", "every-edge")), List.of("all"), List.of("all"), null, null);
        assertThat(s.fixtures()).hasSize(2 * RuntimeVersion.values().length * GcFlavor.values().length);
        assertThat(s.fixtures().subList(0, 2)).extracting(f -> f.name() + " " + f.runtime().shortName() + " " + f.gc().id())
                .containsExactly("default net8 server", "default net8 workstation");
    }

    @Test
    void withoutRuntimeAndGcEachScenarioKeepsItsOwn() throws IOException {
        FixtureSelection s = FixtureSelection.of(ScenarioOption.resolveEach(List.of("default")), null, null, null, null);
        assertThat(s.fixtures()).singleElement().satisfies(f -> {
            assertThat(f.runtime()).isEqualTo(RuntimeVersion.NET8);
            assertThat(f.gc()).isEqualTo(GcFlavor.SERVER);
        });
    }

    @Test
    void heapsWithGcAllGoToTheServerFixturesOnly() throws IOException {
        FixtureSelection s = FixtureSelection.of(ScenarioOption.resolveEach(List.of("default")), List.of("net9"), List.of("all"), 4, null);
        assertThat(s.fixtures()).extracting(f -> f.gc().id() + " " + f.heaps()).containsExactly("server 4", "workstation 1");
    }

    @Test
    void heapsOnWorkstationOnlyIsStillBadUsage() {
        Outcome r = run("generate", "--scenario", "default", "--gc", "workstation", "--heaps", "4", "--out", tmp.resolve("out").toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("heaps must be 1..64 under server GC and 1 under workstation GC");
        assertThat(tmp.resolve("out")).doesNotExist();
    }

    @Test
    void twoFixturesWithOneNameAreRefusedAsBadUsageInOneLine() {
        Outcome r = run("generate", "--scenario", "default", "--scenario", "default", "--out", tmp.resolve("out").toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().lines().toList()).hasSize(2).first().asString()
                .startsWith("clrheap generate: two selected fixtures would both be written as default-net8-server");
        assertThat(r.err()).contains("Try './clrheap generate --help'");
        assertThat(tmp.resolve("out")).doesNotExist();
    }

    @Test
    void allAndARuntimeNamedTwiceAreDuplicatesToo() {
        assertThat(run("generate", "--scenario", "all,every-edge", "--out", tmp.resolve("a").toString()).exitCode()).isEqualTo(2);
        assertThat(run("generate", "--scenario", "default", "--runtime", "all,net9", "--out", tmp.resolve("b").toString()).exitCode()).isEqualTo(2);
    }

    @Test
    void oneDacForABatchOfSeveralRuntimesIsBadUsageAndNothingIsBuilt() {
        Outcome r = run("generate", "--scenario", "default", "--runtime", "net8,net9", "--format", "elf", "--check-dac", tmp.resolve("libmscordaccore.so").toString(),
                "--out", tmp.resolve("out").toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("is one runtime's DAC, and the batch has 2 runtimes");
        assertThat(tmp.resolve("out")).doesNotExist();
    }

    @Test
    void aBuildIsARuntimeOfItsOwnNamedByItsVersionAndWalkedAsItself() throws IOException {
        Path out = tmp.resolve("out");
        Outcome r = run("generate", "--scenario", "min-object", "--runtime", "8.0.27,net8,10.0.11", "--gc", "workstation",
                "--out", out.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        // minidumps only of the builds clrheap has the Windows layouts of (8.0.30 is net8's reference build)
        assertThat(names(out)).contains("min-object-8.0.27-workstation.core", "min-object-net8-workstation.dmp",
                "min-object-net8-workstation.core", "min-object-10.0.11-workstation.core", "min-object-10.0.11-workstation.answer")
                .doesNotContain("min-object-8.0.27-workstation.dmp", "min-object-10.0.11-workstation.dmp");
        assertThat(r.err()).contains("min-object 8.0.27 workstation: no minidump (clrheap has no Windows layout of 8.0.27");
        assertThat(r.out()).contains("3 fixtures: 3 agree with their answer key, 0 failed;");
        assertThat(Files.readString(out.resolve("min-object-8.0.27-workstation.answer/fixture.txt"))).startsWith("min-object on net8 (8.0.27), workstation GC");
        Outcome walked = run("walk", out.resolve("min-object-8.0.27-workstation.core").toString(), "--eeheap");
        assertThat(walked.out() + walked.err()).contains(".NET 8.0.27 (8.0.2726.22922, commit a6bde67c455f), workstation GC, libcoreclr.so");
        Outcome minidump = run("walk", out.resolve("min-object-net8-workstation.dmp").toString(), "--eeheap");
        assertThat(minidump.out() + minidump.err()).contains(".NET 8.0.30 (8.0.3026.36720) on Windows x64, workstation GC, coreclr.dll");
        Outcome asked = run("generate", "--scenario", "min-object", "--runtime", "10.0.11", "--format", "minidump", "--out",
                tmp.resolve("asked").toString(), "-q");
        assertThat(asked.exitCode()).isEqualTo(GenerateCommand.EXIT_INVALID_INPUT);
        assertThat(asked.err()).contains("no minidump: clrheap has no Windows layout of 10.0.11").contains("8.0.30, 10.0.9");
    }

    @Test
    void aVersionAndItsReferenceBuildAreTwoNamesOfOneDacBuildButAnotherBuildIsAnotherRuntime() {
        Outcome one = run("generate", "--scenario", "default", "--runtime", "net9,9.0.1", "--format", "elf", "--check-dac",
                tmp.resolve("nothing").toString(), "--out", tmp.resolve("one").toString(), "-q");
        assertThat(one.err()).doesNotContain("is one runtime's DAC");
        Outcome two = run("generate", "--scenario", "default", "--runtime", "net8,8.0.27", "--format", "elf", "--check-dac",
                tmp.resolve("libmscordaccore.so").toString(), "--out", tmp.resolve("two").toString());
        assertThat(two.exitCode()).isEqualTo(2);
        assertThat(two.err()).contains("the batch has 2 runtimes");
    }

    @Test
    void anUnknownBuildIsBadUsageNamingTheKnownOnesAndAllStaysTheThreeVersions() throws IOException {
        Outcome r = run("generate", "--scenario", "default", "--runtime", "9.0.99", "--out", tmp.resolve("out").toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("unknown runtime build '9.0.99'", "net8, net9, net10", "8.0.27", "9.0.1", "10.0.11");
        assertThat(tmp.resolve("out")).doesNotExist();
        FixtureSelection all = FixtureSelection.of(ScenarioOption.resolveEach(List.of("default")), List.of("all"), List.of("server"), null, null);
        assertThat(all.fixtures()).extracting(f -> FixtureName.of(f).toString())
                .containsExactly("default-net8-server", "default-net9-server", "default-net10-server");
    }

    @Test
    void allIsTakenInAnyCase() {
        // ALL and every-edge: every-edge would be written twice, which says ALL was read as every scenario
        Outcome r = run("generate", "--scenario", "ALL,every-edge", "--out", tmp.resolve("out").toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("two selected fixtures would both be written as every-edge-");
    }

    @Test
    void anUnknownRuntimeInTheListIsBadUsage() {
        Outcome r = run("generate", "--scenario", "default", "--runtime", "net8,net7", "--out", tmp.resolve("out").toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("net7");
    }

    @Test
    void progressNumbersEachFixtureAndSaysWhatItWroteAndTheVerdict() throws IOException {
        Outcome r = run("generate", "--scenario", "min-object", "--runtime", "net8,net9", "--format", "bundle", "--out", tmp.resolve("out").toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).contains("[1/2] min-object net8 server: building min-object", "[2/2] min-object net9 server: building min-object")
                .containsPattern("\\[2/2\\] min-object net9 server: min-object-net9-server.clrheap.tar.xz \\(fixture bundle\\): walker agrees with the answer key")
                .containsPattern("\\[1/2\\] min-object net8 server: wrote 1 file and the answer key, [\\d,]+ bytes, in [\\d.]+ s");
    }

    @Test
    void quietLeavesNoProgressButTheSummary() throws IOException {
        Outcome r = run("generate", "--scenario", "min-object", "--runtime", "net8,net9", "--format", "bundle", "--out", tmp.resolve("out").toString(), "-q");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out().lines().toList()).last().asString()
                .matches("2 fixtures: 2 agree with their answer key, 0 failed; [\\d,]+ bytes written in [\\d.]+ s");
    }

    @Test
    void aFailingFixtureInTheMiddleDoesNotStopTheOthersAndSetsTheExitCode() throws IOException {
        Path out = tmp.resolve("out");
        Outcome r = run("generate", "--scenario", "min-object," + billion() + ",empty-string", "--format", "bundle", "--out", out.toString(), "-q");
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.err()).contains("clrheap generate: [2/3] billion net8 server: scenario billion needs more than this machine has");
        assertThat(names(out)).containsExactly("empty-string-net8-server.answer", "empty-string-net8-server.clrheap.tar.xz",
                "min-object-net8-server.answer", "min-object-net8-server.clrheap.tar.xz");
        assertThat(r.out()).contains("3 fixtures: 2 agree with their answer key, 1 failed (billion-net8-server exit 3);");
    }

    @Test
    void aFixtureThatCannotBeWrittenIsExit1AndTheOthersAreWritten() throws IOException {
        Path out = Files.createDirectories(tmp.resolve("out"));
        // a non-empty folder where the first fixture's bundle goes: it cannot be written
        Files.writeString(Files.createDirectories(out.resolve("min-object-net8-server.clrheap.tar.xz")).resolve("x"), "in the way");
        Outcome r = run("generate", "--scenario", "min-object,empty-string", "--format", "bundle", "--out", out.toString(), "-q");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).startsWith("clrheap generate: [1/2] min-object net8 server: ");
        assertThat(out.resolve("empty-string-net8-server.clrheap.tar.xz")).isRegularFile();
        assertThat(r.out()).contains("2 fixtures: 1 agrees with its answer key, 1 failed (min-object-net8-server exit 1);");
    }

    @Test
    void theExitCodeIsTheWorstOfTheFixtures() throws IOException {
        Path out = Files.createDirectories(tmp.resolve("out"));
        Files.writeString(Files.createDirectories(out.resolve("min-object-net8-server.clrheap.tar.xz")).resolve("x"), "in the way");
        Outcome r = run("generate", "--scenario", "min-object," + billion(), "--format", "bundle", "--out", out.toString(), "-q");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(3);
    }

    @Test
    void theSummaryCountsAgreementsFailuresAndBytes() {
        FixtureName a = new FixtureName("a", RuntimeVersion.NET8, GcFlavor.SERVER);
        assertThat(FixtureBatch.summary(List.of(new FixtureOutcome(a, 0, 10, true), new FixtureOutcome(a, 1, 5, false)), 2_000_000_000L))
                .isEqualTo("2 fixtures: 1 agrees with its answer key, 1 failed (a-net8-server exit 1); 15 bytes written in 2.0 s");
    }
}
