package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import io.clrheap.emulator.BuildEstimate;
import io.clrheap.emulator.Scenarios;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.generator.fixture.FixtureFormat;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** generate (and the other commands that build a scenario) estimate the build and refuse what the machine cannot hold. */
class GenerateEstimateTest {

    @TempDir
    Path tmp;

    @AfterEach
    void realMachine() {
        BuildCheck.machine = new BuildCheck.RealMachine();
    }

    private Path billion() throws IOException {
        Path file = tmp.resolve("billion.json");
        Files.writeString(file, """
                { "name" : "billion", "description" : "the most objects a scenario may ask for", "runtime" : "net8", "gc" : "server",
                  "heaps" : 1, "threads" : 1,
                  "objects" : { "gen2" : 1000000000, "gen1" : 0, "gen0" : 0, "loh" : 0, "poh" : 0, "frozenStrings" : 0 },
                  "garbage" : 0, "handlesPerKind" : 0, "features" : [ ], "types" : [ ], "program" : [ ], "seed" : 1 }
                """);
        return file;
    }

    @Test
    void aBillionObjectsAreRefusedAtOnceWithTheNumbers() throws IOException {
        Path out = tmp.resolve("out");
        long started = System.nanoTime();
        Outcome o = run("generate", "--scenario", billion().toString(), "--out", out.toString());
        assertThat(System.nanoTime() - started).as("refused before building").isLessThan(1_000_000_000L);
        assertThat(o.exitCode()).as(o.err()).isEqualTo(3);
        assertThat(o.err()).contains("scenario billion needs more than this machine has")
                .containsPattern("process memory +[0-9.]+ GiB needed \\(2 builds at once\\), [0-9.]+ [KMGT]iB available")
                .containsPattern("emulator budget +[0-9.]+ GiB needed \\(one build\\), 16.0 GiB available \\(the most a build may write\\): too much")
                .containsPattern("Java heap +[0-9.]+ GiB needed \\(ground truth\\)")
                .containsPattern("disk +[0-9.]+ GiB needed \\(answer key [0-9.]+ GiB, elf [0-9.]+ GiB, minidump .*, bundle .*\\), .* available")
                .contains("--force cannot lift the emulator's budget");
        assertThat(out).doesNotExist();
        // --force does not lift the budget the build would run into
        assertThat(run("generate", "--scenario", billion().toString(), "--out", out.toString(), "--force").exitCode()).isEqualTo(3);
    }

    @Test
    void walkEmulateRefusesABillionObjectsToo() throws IOException {
        Outcome o = run("walk", "--emulate", billion().toString(), "--stat");
        assertThat(o.exitCode()).as(o.err()).isEqualTo(3);
        assertThat(o.err()).contains("--emulate " + billion() + ": scenario billion needs more than this machine has").contains("emulator budget");
    }

    @Test
    void materializeRefusesABillionObjectsBeforeBuilding() throws IOException {
        long started = System.nanoTime();
        Outcome o = run("materialize", billion().toString(), "--for", "1s");
        assertThat(System.nanoTime() - started).isLessThan(1_000_000_000L);
        assertThat(o.exitCode()).as(o.err()).isEqualTo(3);
        assertThat(o.err()).contains("clrheap materialize: scenario billion needs more than this machine has")
                .containsPattern("disk +[0-9.]+ GiB needed \\(the helper's memory image\\)");
    }

    @Test
    void theBuiltInScenariosAreNotRefused() {
        Stream.concat(Scenarios.everyday().stream(), Stream.of(Scenarios.named("large").orElseThrow())).forEach(s ->
                assertThat(GenerateCommand.check("generate", s, EnumSet.allOf(FixtureFormat.class), tmp, false, null)).as(s.name()).isEmpty());
    }

    /** A machine with {@code memory} bytes of memory available, and plenty of everything else. */
    private static BuildCheck.Machine machineWith(long memory) {
        return new BuildCheck.Machine() {
            @Override
            public BuildCheck.Available memory() {
                return new BuildCheck.Available(memory, "a small machine");
            }

            @Override
            public BuildCheck.Available heap() {
                return new BuildCheck.Available(1L << 40, "plenty");
            }

            @Override
            public BuildCheck.Available disk(Path folder) {
                return new BuildCheck.Available(1L << 40, "plenty");
            }
        };
    }

    @Test
    void aBatchCountsTheMemoryItsEarlierFixturesLeftWithTheAllocatorAsAvailable() {
        Scenario base = Scenarios.named("default").orElseThrow();
        long net8 = BuildEstimate.of(base.on(RuntimeVersion.NET8, GcFlavor.SERVER)).memoryBytes(1);
        long net9 = BuildEstimate.of(base.on(RuntimeVersion.NET9, GcFlavor.SERVER)).memoryBytes(1);
        // the machine as the second fixture sees it: the first one's memory is held by this process, not available
        long afterFirst = Math.max(0, net9 - net8) + (1 << 20);
        assertThat(afterFirst).as("too little for net9 on its own").isLessThan(net9);
        long[] calls = {0};
        BuildCheck.Machine shrinking = machineWith(0);
        BuildCheck.machine = new BuildCheck.Machine() {
            @Override
            public BuildCheck.Available memory() {
                return new BuildCheck.Available(calls[0]++ == 0 ? Math.max(net8, net9) : afterFirst, "a machine");
            }

            @Override
            public BuildCheck.Available heap() {
                return shrinking.heap();
            }

            @Override
            public BuildCheck.Available disk(Path folder) {
                return shrinking.disk(folder);
            }
        };

        Outcome r = run("generate", "--scenario", "default", "--runtime", "net8,net9", "--format", "elf", "--out", tmp.resolve("out").toString(), "-q");

        assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
        assertThat(tmp.resolve("out").resolve("default-net9-server.core")).exists();
    }

    @Test
    void aMachineWithTooLittleMemoryRefusesAndForceBuildsAnyway() {
        BuildCheck.machine = machineWith(1 << 20);
        Path out = tmp.resolve("small");
        Outcome refused = run("generate", "--scenario", "default", "--format", "elf", "--out", out.toString());
        assertThat(refused.exitCode()).as(refused.err()).isEqualTo(3);
        assertThat(refused.err()).containsPattern("process memory +[0-9.]+ MiB needed, 1.0 MiB available \\(a small machine\\): too much")
                .contains("--force builds anyway");
        assertThat(out).doesNotExist();
        Outcome forced = run("generate", "--scenario", "default", "--format", "elf", "--out", out.toString(), "--force", "-q");
        assertThat(forced.exitCode()).as(forced.err()).isZero();
        assertThat(out.resolve("default-net8-server.core")).exists();
        // demo too
        assertThat(run("demo", "--out", tmp.resolve("demo").toString()).exitCode()).isEqualTo(3);
    }

    @Test
    void theDiskEstimatesBoundTheFilesWritten() throws IOException {
        Scenario s = Scenarios.named("every-edge").orElseThrow();
        BuildEstimate e = BuildEstimate.of(s);
        Path out = tmp.resolve("every-edge");
        Outcome o = run("generate", "--scenario", "every-edge", "--out", out.toString(), "-q");
        assertThat(o.exitCode()).as(o.err()).isZero();
        assertThat(Files.size(out.resolve("every-edge-net8-server.core"))).isLessThanOrEqualTo(e.elfBytes());
        assertThat(Files.size(out.resolve("every-edge-net8-server.dmp"))).isLessThanOrEqualTo(e.minidumpBytes());
        assertThat(Files.size(out.resolve("every-edge-net8-server.clrheap.tar.xz"))).isLessThanOrEqualTo(e.bundleBytes());
        long answer;
        try (Stream<Path> files = Files.list(out.resolve("every-edge-net8-server.answer"))) {
            answer = files.mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException x) {
                    throw new UncheckedIOException(x);
                }
            }).sum();
        }
        assertThat(answer).isLessThanOrEqualTo(e.answerKeyBytes()).isGreaterThan(e.answerKeyBytes() / 4);
    }
}
