package io.clrheap.golden.bench;

import java.util.Arrays;
import java.util.List;

/**
 * The golden module's part of {@code ./clrheap bench}: the walker benchmark ({@link WalkerBenchmarkReport}), then the
 * ELF writer benchmark ({@link ElfWriterBenchmarkReport}), then the real dumps end to end
 * ({@link RealDumpBenchmarkReport}), then Microsoft's DAC against the walker ({@link DacBenchmarkReport}), each writing its own section of the benchmarks file. Arguments: the benchmarks
 * file, then optionally which reports to run, comma-separated ({@code walker}, {@code elf-writer}, {@code real}, {@code dac};
 * {@code all}, the default, runs them all): {@code ./clrheap bench -Dbench.only=elf-writer}.
 */
public final class GoldenBenchmarkReports {

    private GoldenBenchmarkReports() {
    }

    public static void main(String[] args) throws Exception {
        String out = args.length > 0 ? args[0] : "BENCHMARKS.md";
        List<String> only = args.length > 1 && !args[1].isBlank() ? Arrays.asList(args[1].split(",")) : List.of("all");
        for (String name : only) {
            if (!List.of("all", "walker", "elf-writer", "real", "dac").contains(name)) {
                throw new IllegalArgumentException("unknown report '" + name + "': walker, elf-writer, real, dac or all");
            }
        }
        if (only.contains("all") || only.contains("walker")) {
            WalkerBenchmarkReport.main(new String[] {out});
        }
        if (only.contains("all") || only.contains("elf-writer")) {
            ElfWriterBenchmarkReport.main(new String[] {out});
        }
        if (only.contains("all") || only.contains("real")) {
            RealDumpBenchmarkReport.main(new String[] {out});
        }
        if (only.contains("all") || only.contains("dac")) {
            DacBenchmarkReport.main(new String[] {out});
        }
    }
}
