package io.clrheap.golden.bench;

import java.util.Map;
import org.openjdk.jmh.results.Result;

/**
 * The real dumps' section of BENCHMARKS.md from the JMH results (milliseconds per operation, keyed
 * {@code benchmark/dump}), the checked facts of each dump and the median wall times of the command as a process.
 */
record RealDumpReportSection(Map<String, RealDumpBenchmarkReport.DumpFacts> facts, Map<String, Result<?>> scores,
        Map<String, Double> processMs, double versionMs) {

    private static final double MIB = 1 << 20;

    String render() {
        StringBuilder s = new StringBuilder();
        s.append(RealDumpBenchmarkReport.HEADING).append("\n\n");
        s.append(String.format("Reproduce: `./clrheap bench` (JMH average time: %d fork × (%d warm-up + %d measured) iterations of 1 s per "
                        + "benchmark and dump; processes: the median of %d runs; %s, %d CPUs; load average when the report was written: %s).%n%n",
                RealDumpBenchmarkReport.FORKS, RealDumpBenchmarkReport.WARMUPS, RealDumpBenchmarkReport.MEASUREMENTS,
                RealDumpBenchmarkReport.PROCESS_RUNS, Runtime.version(), Runtime.getRuntime().availableProcessors(), loadAverage()));
        s.append("Each dump of `golden/real/` (decompressed once beforehand, as `clrheap` does on first use). *In the JVM*: "
                + "`walk core.xz --stat` run through the command line's own entry point in a warm JVM — open the core, find the runtime "
                + "module and its exports, discover the heap, walk it, print the statistics. The baseline: reading every 8-byte word "
                + "of the same decompressed core from a fresh mapping. *As a process*: the same command as a JVM of its own "
                + "(what a user types), against a JVM that only prints `--version`. Before timing, each dump's walk with its names "
                + "file was checked to print the committed `expected/dumpheap-stat.txt`.\n\n");
        s.append("| dump | runtime | core | objects | read the core (baseline) | walk --stat in the JVM | ratio | as a process | "
                + "`--version` process | process − `--version` |\n|---|---|---|---|---|---|---|---|---|---|\n");
        for (Map.Entry<String, RealDumpBenchmarkReport.DumpFacts> e : facts.entrySet()) {
            Result<?> read = scores.get("readCore/" + e.getKey());
            Result<?> walk = scores.get("walkStat/" + e.getKey());
            if (read == null || walk == null) {
                continue;
            }
            RealDumpBenchmarkReport.DumpFacts f = e.getValue();
            s.append(String.format("| `%s` | %s | %.1f MiB | %,d | %s | %s | **%.2f** | %,.0f ms | %,.0f ms | %,.0f ms |%n", e.getKey(),
                    f.runtime(), f.coreBytes() / MIB, f.objects(), time(read), time(walk), walk.getScore() / read.getScore(),
                    processMs.get(e.getKey()), versionMs, processMs.get(e.getKey()) - versionMs));
        }
        return s.toString();
    }

    /** The 1-, 5- and 15-minute load averages of /proc/loadavg, or "unknown" where there is none. */
    static String loadAverage() {
        try {
            String[] fields = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim().split("\\s+");
            return fields[0] + ", " + fields[1] + ", " + fields[2];
        } catch (java.io.IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static String time(Result<?> r) {
        double error = r.getScoreError();
        return Double.isNaN(error) ? String.format("%,.1f ms", r.getScore()) : String.format("%,.1f ± %,.1f ms", r.getScore(), error);
    }
}
