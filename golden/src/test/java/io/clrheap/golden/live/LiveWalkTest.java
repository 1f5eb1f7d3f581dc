package io.clrheap.golden.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.cli.ClrheapCommand;
import io.clrheap.cli.ClrheapCommand.Outcome;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.OpenOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code clrheap walk --pid PID} on real running .NET 8.0.30, 9.0.1 and 10.0.9 processes, server (2 heaps) and
 * workstation GC, each running HeapProbe.cs ({@link DotnetTestProcess}): the walk finds every object the process
 * reported about itself with its MethodTable and size, {@code --stat} and {@code --verify} work on it, and
 * {@code --suspend} leaves it running; the fields of the program's objects hold what its reflection says they hold.
 */
class LiveWalkTest {

    private static final Pattern WALKED = Pattern.compile("walked ([\\d,]+) objects \\(([\\d,]+) MiB\\) in ([\\d,]+) ms");

    static Stream<Arguments> runtimes() {
        List<Arguments> cases = new ArrayList<>();
        for (RealRuntime runtime : RealRuntime.values()) {
            cases.add(Arguments.of(runtime, true));
            cases.add(Arguments.of(runtime, false));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} server GC {1}")
    @MethodSource("runtimes")
    void walksARunningProcess(RealRuntime runtime, boolean serverGc) throws Exception {
        try (DotnetTestProcess process = DotnetTestProcess.start(runtime, serverGc)) {
            String pid = Long.toString(process.pid());

            Outcome objects = ClrheapCommand.run("walk", "--pid", pid, "--objects");
            assertThat(objects.exitCode()).as(objects.err()).isZero();
            assertThat(objects.err()).contains("process " + pid, ".NET " + runtime.version(),
                    (serverGc ? "server" : "workstation") + " GC", (serverGc ? 2 : 1) + " heap");
            Map<Long, long[]> walked = new HashMap<>();
            for (String line : objects.out().lines().skip(1).toList()) {
                String[] f = line.split("\t");
                walked.put(Long.decode(f[0]), new long[] {Long.decode(f[1]), Long.parseLong(f[2])});
            }
            for (ReportedObject o : process.objects()) {
                long[] found = walked.get(o.address());
                assertThat(found).as("%s (%s) at 0x%x is walked", o.label(), o.type(), o.address()).isNotNull();
                assertThat(found[0]).as("%s's MethodTable", o.label()).isEqualTo(o.methodTable());
                assertThat(found[1]).as("%s's size", o.label()).isEqualTo(o.size());
            }

            long start = System.nanoTime();
            Outcome stat = ClrheapCommand.run("walk", "--pid", pid, "--stat", "--verbose");
            long commandMillis = (System.nanoTime() - start) / 1_000_000;
            assertThat(stat.exitCode()).as(stat.err()).isZero();
            assertThat(stat.out()).contains("Total " + String.format("%,d", walked.size()) + " objects");
            Matcher m = WALKED.matcher(stat.err());
            assertThat(m.find()).as(stat.err()).isTrue();
            System.out.printf("live walk --stat of %s %s GC (pid %s): %s objects, %s MiB walked in %s ms; the whole command (open, discovery, walk) %d ms%n",
                    runtime, serverGc ? "server" : "workstation", pid, m.group(1), m.group(2), m.group(3), commandMillis);

            Outcome verify = ClrheapCommand.run("walk", "--pid", pid, "--verify");
            List<String> problems = verify.out().lines().filter(l -> !l.endsWith(" objects walked, 0 problems") && !l.matches("[\\d,]+ objects walked, [\\d,]+ problems?")).toList();
            // every runtime × GC, 9.0.1 server included: its profile now has the offsets the runtime publishes (net9-svr)
            assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
            assertThat(problems).isEmpty();
            assertThat(verify.out()).contains(String.format("%,d objects walked, %d problem", walked.size(), problems.size()));

            // --suspend in a JVM of its own: this one is the process's parent, and its process reaper would take the
            // stop of a traced child for the child's end (ProcessSuspension's javadoc)
            Outcome suspended = runInOwnJvm("walk", "--pid", pid, "--suspend", "--stat");
            assertThat(suspended.exitCode()).as(suspended.err()).isZero();
            assertThat(suspended.err()).containsPattern("suspended \\d+ threads of process " + pid).contains("resumed process " + pid);
            assertThat(suspended.out()).isEqualTo(stat.out());
            assertThat(process.isAlive()).isTrue();

            // stopped, its threads' registers are read (PTRACE_GETREGS): their stacks are scanned for roots
            Outcome roots = runInOwnJvm("walk", "--pid", pid, "--suspend", "--roots");
            assertThat(roots.exitCode()).as(roots.err()).isZero();
            assertThat(roots.err()).containsPattern("from the stacks, registers and thread statics of ([1-9][0-9]*) of \\1 managed threads");
            assertThat(roots.out().lines().filter(l -> l.startsWith("stack\t"))).as("stack roots of %s", runtime).isNotEmpty();
            Outcome running = ClrheapCommand.run("walk", "--pid", pid, "--roots");
            assertThat(running.exitCode()).as(running.err()).isZero();
            assertThat(running.err()).contains("not scanned: no thread registers were recorded (a running process: walk it with --suspend, or capture it)");
            assertThat(running.out().lines().filter(l -> l.startsWith("stack\t"))).isEmpty();
            for (Path task : tasks(process.pid())) {
                assertThat(status(task, "TracerPid")).as("%s after --suspend", task).isEqualTo("0");
                assertThat(status(task, "State")).as("%s after --suspend", task).doesNotStartWith("t");
            }
        }
    }

    private static List<Path> tasks(long pid) throws IOException {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            return tasks.toList();
        }
    }

    private static String status(Path task, String field) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(task.resolve("status"))) {
            for (String line; (line = in.readLine()) != null; ) {
                if (line.startsWith(field + ":")) {
                    return line.substring(field.length() + 1).strip();
                }
            }
        }
        return null;
    }

    private static Outcome runInOwnJvm(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), ClrheapCommand.class.getName()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile("clrheap-live", ".out");
        Path err = Files.createTempFile("clrheap-live", ".err");
        try {
            Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("clrheap " + List.of(args) + " did not finish in 120 s");
            }
            return new Outcome(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyRuntime")
    void theFrontDoorAttachesToARunningProcessAndWalksEveryObjectItReported(RealRuntime runtime) throws Exception {
        try (DotnetTestProcess process = DotnetTestProcess.start(runtime, true);
             DumpSession session = Dumps.attach((int) process.pid(), OpenOptions.DEFAULT)) {
            assertThat(session.format()).isEqualTo("live process");
            assertThat(session.target().version()).isEqualTo(runtime.version());
            assertThat(session.heap().heaps()).hasSize(2);
            Map<Long, long[]> walked = new HashMap<>();
            session.walk((address, mt, size, region) -> walked.put(address, new long[] {mt, size}));
            for (ReportedObject o : process.objects()) {
                assertThat(walked.get(o.address())).as("%s (%s) at 0x%x", o.label(), o.type(), o.address())
                        .containsExactly(o.methodTable(), o.size());
                // names from the metadata in the process's memory: Type.FullName spells a non-generic type as the DAC does
                if (!o.type().contains("`")) {
                    assertThat(session.typeNames().name(o.methodTable())).as("type of %s at 0x%x", o.label(), o.address()).contains(o.type());
                }
            }
            assertThat(process.objects()).anyMatch(o -> !o.type().contains("`"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyRuntime")
    void theFieldsOfARunningProcessHoldTheValuesItsReflectionReports(RealRuntime runtime) throws Exception {
        try (DotnetTestProcess process = DotnetTestProcess.start(runtime, false);
             DumpSession session = Dumps.attach((int) process.pid(), OpenOptions.DEFAULT)) {
            SelfReportedFields.Checked checked = SelfReportedFields.assertMatch(session, process.probe(), runtime + " live");
            System.out.printf("fields of %s live: %d values reported by reflection, %d as assigned%n", runtime, checked.reflected(), checked.assigned());
        }
    }

    @Test
    void aFieldWalkedWithAnotherValueThanTheReportedOneIsNamed() throws Exception {
        try (DotnetTestProcess process = DotnetTestProcess.start(RealRuntime.NET9, false);
             DumpSession session = Dumps.attach((int) process.pid(), OpenOptions.DEFAULT)) {
            // one number, one reference and one string changed as if the program had reported other values
            List<String> lines = process.output().stream().map(l -> switch (l) {
                case "FIELD derived Colour 300" -> "FIELD derived Colour 301";
                case "FIELD node.second Next node.first" -> "FIELD node.second Next young.node";
                case "FIELD derived Edge.Name \"edge in a class\"" -> "FIELD derived Edge.Name \"edge in a box\"";
                default -> l;
            }).toList();
            assertThat(lines).isNotEqualTo(process.output());
            ProbeOutput tampered = ProbeOutput.parse(lines);
            assertThatThrownBy(() -> SelfReportedFields.assertMatch(session, tampered, "tampered"))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("derived (ProbeDerived) field Colour: reported 301")
                    .hasMessageContaining("node.second (ProbeNode) field Next: reported young.node")
                    .hasMessageContaining("field Edge.Name: reported the string \"edge in a box\", walked the string \"edge in a class\"");
        }
    }

    static Stream<RealRuntime> everyRuntime() {
        return Stream.of(RealRuntime.values());
    }
}
