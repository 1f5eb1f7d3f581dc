package io.clrheap.golden.bench;

import io.clrheap.cli.ClrheapCommand;
import io.clrheap.layout.view.bench.BenchmarksFile;
import io.clrheap.walker.source.elf.ElfCore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link RealDumpBenchmark} and writes the real dumps' section of the benchmarks file given as argument. Before
 * the benchmark, each dump is opened once (which decompresses it) and walked once with its committed names file, and
 * the output must equal the committed {@code expected/dumpheap-stat.txt}: a timing of a wrong answer is not reported.
 * After it, the command is also run as a process of its own, JVM start included, against a process that only prints
 * its version.
 */
public final class RealDumpBenchmarkReport {

    static final String HEADING = "## Real dumps: open + `walk --stat`, end to end";
    static final int FORKS = 1;
    static final int WARMUPS = 3;
    static final int MEASUREMENTS = 5;
    static final int PROCESS_RUNS = 5;

    private RealDumpBenchmarkReport() {
    }

    /** The real dumps' folder: the golden module's {@code real/} (benchmarks run in the module's directory). */
    static Path realRoot() {
        return Path.of(System.getProperty("clrheap.bench.real", "real")).toAbsolutePath();
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "BENCHMARKS.md");
        Map<String, DumpFacts> facts = new LinkedHashMap<>();
        for (String name : dumpNames()) {
            facts.put(name, check(name));
        }
        Options options = new OptionsBuilder()
                .include(RealDumpBenchmark.class.getName())
                .forks(FORKS).warmupIterations(WARMUPS).measurementIterations(MEASUREMENTS)
                .warmupTime(TimeValue.seconds(1)).measurementTime(TimeValue.seconds(1))
                .jvmArgsAppend("--enable-native-access=ALL-UNNAMED", "-Dclrheap.bench.real=" + realRoot())
                .build();
        Map<String, Result<?>> scores = new HashMap<>();
        for (RunResult r : new Runner(options).run()) {
            String benchmark = r.getParams().getBenchmark();
            scores.put(benchmark.substring(benchmark.lastIndexOf('.') + 1) + "/" + r.getParams().getParam("name"), r.getPrimaryResult());
        }
        Map<String, Double> processMs = new LinkedHashMap<>();
        double versionMs = medianProcessMs(List.of("--version"));
        for (String name : facts.keySet()) {
            processMs.put(name, medianProcessMs(List.of("walk", realRoot().resolve(name).resolve("core.xz").toString(), "--stat", "-q")));
        }
        String section = new RealDumpReportSection(facts, scores, processMs, versionMs).render();
        System.out.println();
        System.out.println(section);
        BenchmarksFile.writeSection(out, section);
        System.out.println("wrote " + out.toAbsolutePath());
    }

    /** The dumps the benchmark runs on: its {@code @Param} list, read so that the two cannot disagree. */
    static List<String> dumpNames() throws NoSuchFieldException {
        return Arrays.asList(RealDumpBenchmark.Dump.class.getField("name").getAnnotation(org.openjdk.jmh.annotations.Param.class).value());
    }

    /** What one dump is, checked: its walk with the committed names file prints the committed statistics. */
    record DumpFacts(String runtime, long coreBytes, long objects) {
    }

    private static DumpFacts check(String name) throws Exception {
        Path folder = realRoot().resolve(name);
        long coreBytes;
        try (ElfCore core = ElfCore.open(folder.resolve("core.xz"), line -> System.out.println("real dumps: " + line))) {
            coreBytes = Files.size(core.path());
        }
        ClrheapCommand.Outcome outcome = ClrheapCommand.run("walk", folder.resolve("core.xz").toString(), "--stat", "-q", "--names",
                folder.resolve("live-objects.txt").toString());
        String expected = Files.readString(folder.resolve("expected/dumpheap-stat.txt"));
        if (outcome.exitCode() != 0 || !outcome.out().equals(expected)) {
            throw new IllegalStateException("real dumps: walk " + folder + " --stat does not print expected/dumpheap-stat.txt (exit "
                    + outcome.exitCode() + "); not timing it. " + outcome.err());
        }
        String total = expected.lines().filter(l -> l.startsWith("Total ")).findFirst().orElseThrow();
        long objects = Long.parseLong(total.substring("Total ".length(), total.indexOf(" objects")).replace(",", ""));
        // the dump's runtime and GC, from the table of golden/real/README.md: | `net8-svr/` | 8.0.30 | server | 2 | ...
        String row = Files.readAllLines(realRoot().resolve("README.md")).stream().filter(l -> l.startsWith("| `" + name + "/` |"))
                .findFirst().orElseThrow(() -> new IllegalStateException("real dumps: no row for " + name + " in README.md"));
        String[] cells = row.split("\\|");
        String runtime = ".NET " + cells[2].trim() + ", " + cells[3].trim() + " GC, " + cells[4].trim() + " heap" + (cells[4].trim().equals("1") ? "" : "s");
        return new DumpFacts(runtime, coreBytes, objects);
    }

    /** The median wall time of {@link #PROCESS_RUNS} runs of the command line as a JVM of its own. */
    private static double medianProcessMs(List<String> arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), ClrheapCommand.class.getName()));
        command.addAll(arguments);
        double[] ms = new double[PROCESS_RUNS];
        for (int i = 0; i < PROCESS_RUNS; i++) {
            long start = System.nanoTime();
            Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("real dumps: " + String.join(" ", arguments) + " did not finish in 120 s");
            }
            ms[i] = (System.nanoTime() - start) / 1e6;
            if (p.exitValue() != 0) {
                throw new IllegalStateException("real dumps: " + String.join(" ", arguments) + " exited " + p.exitValue());
            }
        }
        Arrays.sort(ms);
        return ms[ms.length / 2];
    }

}
