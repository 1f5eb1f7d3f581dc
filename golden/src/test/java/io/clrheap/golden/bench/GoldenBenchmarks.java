package io.clrheap.golden.bench;

import java.util.List;
import java.util.Set;

/**
 * The golden module's part of {@code ./clrheap bench}: each report writes its own section of the benchmarks file
 * given as first argument. The second names the reports to run, comma-separated ({@code walker,real}, the default; the
 * property {@code bench.golden}, e.g. {@code ./clrheap bench -Dbench.golden=real}).
 */
public final class GoldenBenchmarks {

    private GoldenBenchmarks() {
    }

    public static void main(String[] args) throws Exception {
        String out = args.length > 0 ? args[0] : "BENCHMARKS.md";
        Set<String> only = Set.copyOf(List.of((args.length > 1 ? args[1] : "").split(",")));
        if (only.contains("") || only.contains("walker")) {
            WalkerBenchmarkReport.main(new String[] {out});
        }
        if (only.contains("") || only.contains("real")) {
            RealDumpBenchmarkReport.main(new String[] {out});
        }
    }
}
