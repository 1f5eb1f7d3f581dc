package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import io.clrheap.emulator.ScenarioJson;
import io.clrheap.emulator.Scenarios;
import io.clrheap.emulator.scenario.GcMode;
import io.clrheap.emulator.scenario.Scenario;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code generate --gc-mode}: a scenario on the standalone segments GC ({@code libclrgc.so}, emulated for .NET 9 only,
 * docs/reference/discovery.md section 14), its fixtures named apart from the regions GC's, and the refusals of what
 * no process has.
 */
class GenerateGcModeTest {

    @TempDir
    Path tmp;

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void theDefaultScenarioOnTheSegmentsGcIsWrittenUnderASegmentsNameAndAgreesWithItsAnswerKey() throws IOException {
        Path out = tmp.resolve("out");
        Outcome r = run("generate", "--scenario", "default", "--runtime", "net9", "--gc-mode", "segments", "--format", "bundle",
                "--out", out.toString(), "-q");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(names(out)).containsExactly("default-net9-server-segments.answer", "default-net9-server-segments.clrheap.tar.xz");
        assertThat(r.out()).contains("agrees");
    }

    @Test
    void theSegmentsGcOnNet8IsRefusedAsBadUsageNamingNet9() {
        Outcome r = run("generate", "--scenario", "default", "--runtime", "net8", "--gc-mode", "segments", "--format", "bundle",
                "--out", tmp.resolve("out").toString(), "-q");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains(".NET 9");
        assertThat(tmp.resolve("out")).doesNotExist();
    }

    @Test
    void aScenarioOnTheSegmentsGcReadsBackFromItsJsonWithItsGcMode() {
        Scenario segments = Scenarios.named("segments").orElseThrow();
        String json = ScenarioJson.write(segments);
        assertThat(json).containsPattern("\"gcMode\"\\s*:\\s*\"segments\"");
        Scenario read = ScenarioJson.read(json, "segments.json");
        assertThat(read.gcMode()).isEqualTo(GcMode.SEGMENTS);
        assertThat(read).isEqualTo(segments);
    }

    @Test
    void aSegmentsGcScenarioUnderGcModeRegionsIsBadUsageNamingIt() {
        Outcome r = run("generate", "--scenario", "trap-stale-segment-tail", "--gc-mode", "regions", "--format", "bundle",
                "--out", tmp.resolve("out").toString(), "-q");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("no selected scenario runs on the regions GC", "trap-stale-segment-tail", "segments GC's own");
    }

    @Test
    void gcModeSegmentsLeavesOutTheScenariosThatPlaceContextsInRegions() {
        Outcome r = run("generate", "--scenario", "min-object,context-at-region-end", "--runtime", "net9", "--gc", "workstation", "--gc-mode", "segments",
                "--format", "bundle", "--out", tmp.resolve("out").toString(), "-q");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(tmp.resolve("out").resolve("min-object-net9-workstation-segments.clrheap.tar.xz")).exists();
        assertThat(tmp.resolve("out").resolve("context-at-region-end-net9-workstation-segments.clrheap.tar.xz")).doesNotExist();
    }

    @Test
    void gcModeSegmentsOnAScenarioOfAnotherRuntimeNamesItsRuntimeAndTheFix() {
        Outcome r = run("generate", "--scenario", "naive-plain", "--gc-mode", "segments", "--out", tmp.resolve("out").toString(), "-q");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("own runtime is net8", "--runtime net9");
    }

    @Test
    void aSegmentsOnlyFeatureInARegionsScenarioIsRefusedNamingIt() {
        java.nio.file.Path json = tmp.resolve("s.json");
        String text = io.clrheap.emulator.ScenarioJson.write(io.clrheap.emulator.Scenarios.named("trap-stale-segment-tail").orElseThrow()
                .toBuilder().name("mine").gcMode(GcMode.REGIONS).build());
        try {
            java.nio.file.Files.writeString(json, text);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        Outcome r = run("generate", "--scenario", json.toString(), "--format", "bundle", "--out", tmp.resolve("out").toString(), "-q");
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.err()).contains("stale-segment-tail needs the segments GC");
    }
}
