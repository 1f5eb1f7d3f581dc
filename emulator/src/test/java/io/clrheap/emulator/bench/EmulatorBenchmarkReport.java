package io.clrheap.emulator.bench;

import io.clrheap.layout.view.bench.BenchmarksFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link EmulatorBuildBenchmark} and {@link BuildHeapProbe}, and writes the emulator's section of the
 * benchmarks file given as argument: the build's time as a ratio of zero-filling as many bytes in the same run, and
 * the Java heap a build takes next to the size of the heap it builds.
 */
public final class EmulatorBenchmarkReport {

    static final String HEADING = "## Emulator: building a ≥ 1 GiB heap vs zero-filling the same bytes";
    static final int FORKS = 2;
    static final int WARMUP_SHOTS = 2;
    static final int MEASURED_SHOTS = 3;
    /** Below the heap built (about 1.4 GB): the build must not need a Java heap the size of the heap it builds. */
    static final String MAX_HEAP = "-Xmx768m";
    /** The baseline's chunks come from an Arena, which counts against the direct-memory limit (by default -Xmx). */
    static final String BASELINE_DIRECT = "-XX:MaxDirectMemorySize=4g";

    private EmulatorBenchmarkReport() {
    }

    public static void main(String[] args) throws RunnerException, IOException, InterruptedException {
        Path out = Path.of(args.length > 0 ? args[0] : "BENCHMARKS.md");
        // the heap probe first: if a build cannot run under the small -Xmx at all, that is the first thing to say
        HeapProbeRun probe = HeapProbeRun.run(MAX_HEAP);
        if (!probe.succeeded()) {
            throw new IllegalStateException("the build failed under " + MAX_HEAP + ": " + probe.failure());
        }
        Options options = new OptionsBuilder()
                .include(EmulatorBuildBenchmark.class.getName())
                .forks(FORKS)
                .warmupIterations(WARMUP_SHOTS)
                .measurementIterations(MEASURED_SHOTS)
                .jvmArgsAppend("--enable-native-access=ALL-UNNAMED", MAX_HEAP, BASELINE_DIRECT)
                .build();
        Collection<RunResult> results = new Runner(options).run();
        Map<String, Result<?>> scores = new HashMap<>();
        for (RunResult r : results) {
            String name = r.getParams().getBenchmark();
            scores.put(name.substring(name.lastIndexOf('.') + 1), r.getPrimaryResult());
        }
        String report = new EmulatorReportSection(scores.get("buildScenario"), scores.get("zeroFill"), probe).render();
        System.out.println();
        System.out.println(report);
        BenchmarksFile.writeSection(out, report);
        System.out.println("wrote " + out.toAbsolutePath());
    }
}
