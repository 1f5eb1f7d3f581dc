package io.clrheap.layout.view.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link ViewBenchmark} and reports the generated view's throughput as a ratio of the hand-written
 * reader's, measured in the same run; writes its section into the benchmarks file given as argument, keeping the others.
 */
public final class ViewBenchmarkReport {

    private ViewBenchmarkReport() {
    }

    public static void main(String[] args) throws RunnerException, IOException {
        Path out = Path.of(args.length > 0 ? args[0] : "BENCHMARKS.md");
        Options options = new OptionsBuilder()
                .include(ViewBenchmark.class.getName())
                .forks(2)
                .warmupIterations(3).warmupTime(TimeValue.seconds(1))
                .measurementIterations(5).measurementTime(TimeValue.seconds(1))
                .jvmArgsAppend("--enable-native-access=ALL-UNNAMED")
                .build();
        Collection<RunResult> results = new Runner(options).run();
        Map<String, double[]> scores = new HashMap<>();
        for (RunResult r : results) {
            String name = r.getParams().getBenchmark();
            name = name.substring(name.lastIndexOf('.') + 1);
            scores.put(name, new double[] {r.getPrimaryResult().getScore(), r.getPrimaryResult().getScoreError()});
        }
        double[] generated = scores.get("generatedView");
        double[] baseline = scores.get("handWrittenReader");
        double ratio = generated[0] / baseline[0];
        String segmentsPerSecond = "%,.0f ± %,.0f walks/s (%,.0f segments/s)";
        String report = "## Layout views: generated (Byte Buddy) vs hand-written reader\n\n"
                + "Reproduce: `./clrheap bench` (JMH, 2 forks, 3 × 1 s warm-up, 5 × 1 s measurement; "
                + Runtime.version() + ").\n\n"
                + "Each operation follows a chain of " + ViewBenchmark.SEGMENTS + " `heap_segment` descriptors in off-heap memory and "
                + "reads `allocated`, `mem`, `flags`, `next` of each.\n\n"
                + "| reader | throughput | ratio to hand-written |\n|---|---|---|\n"
                + "| hand-written offsets (baseline) | " + String.format(segmentsPerSecond, baseline[0], baseline[1], baseline[0] * ViewBenchmark.SEGMENTS) + " | 1.00 |\n"
                + "| generated view (`HeapSegment`) | " + String.format(segmentsPerSecond, generated[0], generated[1], generated[0] * ViewBenchmark.SEGMENTS) + " | "
                + String.format("%.2f", ratio) + " |\n\n"
                + "Aim: the generated view within 10 % of the hand-written reader (ratio ≥ 0.90). "
                + (ratio >= 0.90 ? "Met." : "Not met in this run.") + "\n";
        System.out.println();
        System.out.println(report);
        // only this report's section: the file holds other modules' sections too
        BenchmarksFile.writeSection(out, report);
        System.out.println("wrote " + out.toAbsolutePath());
    }
}
