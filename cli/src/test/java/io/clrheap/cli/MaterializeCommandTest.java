package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.Scenarios;
import io.clrheap.generator.ExternalTool;
import io.clrheap.generator.answer.AnswerKeyWriter;
import io.clrheap.generator.materialize.MaterializedProcess;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code clrheap materialize}: an emulated process placed at its addresses in a helper process is walked through
 * {@code walk --pid} — the live walker, which does not know it is no real runtime — to exactly the emulator's answer
 * key, gdb attached to the helper reads objects' MethodTables, and nothing is left behind.
 */
class MaterializeCommandTest {

    static Stream<Arguments> processes() {
        return Stream.of(Arguments.of("default", RuntimeVersion.NET8, GcFlavor.SERVER),
                Arguments.of("default", RuntimeVersion.NET10, GcFlavor.WORKSTATION),
                Arguments.of("every-edge", RuntimeVersion.NET9, GcFlavor.SERVER));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("processes")
    void theLiveWalkOfAMaterializedProcessIsItsAnswerKey(String name, RuntimeVersion version, GcFlavor gc, @TempDir Path dir) throws Exception {
        EmulatedRuntime process = new RuntimeBuilder().build(Scenarios.named(name).orElseThrow().on(version, gc));
        Path answer = dir.resolve("answer");
        AnswerKeyWriter.write(process, answer);
        long pid;
        Path folder;
        try (MaterializedProcess helper = MaterializedProcess.start(process, Duration.ofMinutes(10))) {
            pid = helper.pid();
            folder = helper.image().directory();
            String p = Long.toString(pid);
            String names = helper.image().typeNames().toString();
            // /proc/PID/maps names the runtime module's file, as a real process's does
            assertThat(Files.readString(Path.of("/proc", p, "maps"))).contains(String.format("%x-", process.module().base()))
                    .contains("/libcoreclr.so");

            Outcome objects = run("walk", "--pid", p, "--objects", "--names", names);
            assertThat(objects.exitCode()).as(objects.err()).isZero();
            assertThat(objects.err()).contains("process " + pid, ".NET " + process.layout().primaryBuild().version());
            List<String> walked = objects.out().lines().skip(1).toList();
            // walk --objects prints the answer key's objects.tsv format (docs/reports.md)
            List<String> expected = Files.readAllLines(answer.resolve("objects.tsv")).stream().skip(1).toList();
            assertThat(walked).hasSize(expected.size());
            assertThat(walked).containsExactlyElementsOf(expected);

            Outcome stat = run("walk", "--pid", p, "--stat", "--names", names, "-q");
            assertThat(stat.exitCode()).as(stat.err()).isZero();
            assertThat(stat.out().replace(System.lineSeparator(), "\n")).isEqualTo(Files.readString(answer.resolve("dumpheap-stat.txt")));

            Outcome verify = run("walk", "--pid", p, "--verify", "-q");
            assertThat(verify.exitCode()).as(verify.out()).isZero();
        }
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("helper %d after close", pid).isFalse();
        assertThat(folder).doesNotExist();
    }

    @Test
    void gdbAttachedToTheHelperReadsObjectsMethodTables(@TempDir Path dir) throws Exception {
        Path gdb = ExternalTool.GDB.require();
        EmulatedRuntime process = new RuntimeBuilder().build(Scenarios.named("default").orElseThrow());
        List<long[]> sample = new ArrayList<>();
        long every = Math.max(1, process.groundTruth().objectCount() / 20);
        long[] i = {0};
        process.groundTruth().forEachObject((address, mt, size, generation, heap, kind) -> {
            if (i[0]++ % every == 0) {
                sample.add(new long[] {address, mt});
            }
        });
        try (MaterializedProcess helper = MaterializedProcess.start(process, Duration.ofMinutes(10))) {
            List<String> args = new ArrayList<>(List.of("-q", "-nx", "-batch", "-p", Long.toString(helper.pid())));
            sample.forEach(o -> args.addAll(List.of("-ex", String.format("x/2gx 0x%x", o[0]))));
            ExternalTool.Result r = ExternalTool.run(gdb, args, dir, 120);
            for (long[] o : sample) {
                assertThat(r.output()).as("gdb output").containsPattern(String.format("0x%x(?: <[^>]*>)?:\\s+0x0*%x\\b", o[0], o[1]));
            }
            // gdb detached: the helper runs on and is still walkable
            assertThat(helper.isAlive()).isTrue();
            assertThat(run("walk", "--pid", Long.toString(helper.pid()), "--stat", "-q").exitCode()).isZero();
        }
    }

    @Test
    void theCommandPrintsThePidAndHowToWalkItThenEndsTheHelperAndRemovesItsFiles() {
        Outcome r = run("materialize", "default", "--runtime", "10", "--gc", "workstation", "--for", "3s");
        assertThat(r.exitCode()).as(r.err()).isZero();
        Matcher m = Pattern.compile("in process (\\d+): \\d+ ranges").matcher(r.out());
        assertThat(m.find()).as(r.out()).isTrue();
        long pid = Long.parseLong(m.group(1));
        assertThat(r.out()).contains("default (.NET 10.0.9, workstation GC, 1 heap, seed ", "walk it:   ./clrheap walk --pid " + pid + " --stat --names ",
                "read it:   gdb -p " + pid + " -batch -ex 'x/2gx 0x", "running for 3s");
        Matcher names = Pattern.compile("--names (\\S+)").matcher(r.out());
        assertThat(names.find()).isTrue();
        assertThat(Path.of(names.group(1)).getParent()).doesNotExist();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    }

    @Test
    void usageErrorsAndHelp() {
        Outcome help = run("materialize", "--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.out()).contains("MAP_FIXED_NOREPLACE", "--for=DURATION", "--runtime=net8|net9|net10", "walk --pid");
        Outcome duration = run("materialize", "default", "--for", "soon");
        assertThat(duration.exitCode()).isEqualTo(2);
        assertThat(duration.err()).contains("'soon' is not a duration");
        assertThat(run("materialize", "default", "--for", "0s").err()).contains("must be positive");
        Outcome unknown = run("materialize", "no-such-scenario");
        assertThat(unknown.exitCode()).isEqualTo(3);
        assertThat(unknown.err()).contains("no built-in scenario named 'no-such-scenario'");
        assertThat(run("materialize").exitCode()).isEqualTo(2);
    }
}
