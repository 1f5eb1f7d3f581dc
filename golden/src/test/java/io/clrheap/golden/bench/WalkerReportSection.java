package io.clrheap.golden.bench;

import io.clrheap.walker.walk.WalkSummary;
import java.util.Map;
import org.openjdk.jmh.results.Result;

/**
 * The walker's section of BENCHMARKS.md from the JMH results (milliseconds per operation, keyed
 * {@code benchmark/source}) and what one walk of the heap found.
 */
record WalkerReportSection(Map<String, Result<?>> scores, WalkSummary heap, long scannedBytes, int regions, long coreBytes) {

    private static final double GIB = 1 << 30;

    String render() {
        StringBuilder s = new StringBuilder();
        s.append(WalkerBenchmarkReport.HEADING).append("\n\n");
        s.append(String.format("Reproduce: `./clrheap bench` (JMH average time: %d fork × (%d warm-up + %d measured) iterations of 1 s per "
                        + "benchmark and source, forks run with `%s`; %s, %d CPUs).%n%n", WalkerBenchmarkReport.FORKS,
                WalkerBenchmarkReport.WARMUPS, WalkerBenchmarkReport.MEASUREMENTS, WalkerBenchmarkReport.MAX_HEAP, Runtime.version(),
                Runtime.getRuntime().availableProcessors()));
        s.append(String.format("The heap: %s — %,d objects, %,d bytes in objects, %d regions, %,d bytes (%.2f GiB) of region memory "
                        + "`[mem, end)` present in the dump; the ELF core is %.2f GiB. Two sources of the same memory: the ELF core memory-mapped as "
                        + "`clrheap walk` reads it (`ElfCore`), and the emulator's address space it was written from (`AddressSpace`). "
                        + "The baseline, per source: a raw scan reading every 8-byte word of every region's `[mem, end)` through the same "
                        + "`Memory` (through its `contiguous` views where it has them, `readLong` elsewhere). The walk reads the MethodTable word of each object (and the length of an array or string) and looks "
                        + "the MethodTable up.%n%n",
                WalkerBenchHeap.scenario().description(), heap.objects(), heap.bytes(), regions, scannedBytes, scannedBytes / GIB,
                coreBytes / GIB));
        s.append("| source | | time per walk | objects/s | bytes/s (region memory) | ratio to raw scan |\n|---|---|---|---|---|---|\n");
        for (String source : new String[] {"elf", "emulated"}) {
            Result<?> raw = scores.get("rawScan/" + source);
            if (raw == null) {
                continue;
            }
            double rawMs = raw.getScore();
            row(s, source, "raw scan (baseline)", raw, rawMs);
            row(s, source, "walk, 1 thread", scores.get("walk/" + source), rawMs);
            row(s, source, "`walk --stat` visitor, 1 thread", scores.get("stat1/" + source), rawMs);
            row(s, source, "`walk --stat` visitor, 2 threads", scores.get("stat2/" + source), rawMs);
            row(s, source, "`walk --refs`: walk + every reference, 1 thread", scores.get("refs1/" + source), rawMs);
        }
        Result<?> file = scores.get("fileScan");
        if (file != null) {
            s.append(String.format("%nContext, the machine's limit: summing every word of the core file straight from its mapping (no ranges, "
                    + "no interface) takes %s: %.2f GiB/s.%n", time(file), coreBytes / GIB / (file.getScore() / 1000)));
        }
        for (String source : new String[] {"elf", "emulated"}) {
            Result<?> walk = scores.get("walk/" + source);
            Result<?> refs = scores.get("refs1/" + source);
            if (walk != null && refs != null) {
                s.append(String.format("%n%s: reading every object's references from its GC descriptor (`walk --refs`, issue 20) takes %.2f × the plain walk.",
                        source, refs.getScore() / walk.getScore()));
            }
        }
        s.append("\n");
        s.append("\nTargets (issue 9): ≥ 100 M objects/s per core; walk time ≤ 2 × the raw scan; region-parallel walk ≥ 1.7 × faster on 2 "
                + "cores than on 1.\n\n");
        for (String source : new String[] {"elf", "emulated"}) {
            Result<?> raw = scores.get("rawScan/" + source);
            Result<?> walk = scores.get("walk/" + source);
            Result<?> one = scores.get("stat1/" + source);
            Result<?> two = scores.get("stat2/" + source);
            if (raw == null || walk == null || one == null || two == null) {
                continue;
            }
            double rate = heap.objects() / (walk.getScore() / 1000);
            double ratio = walk.getScore() / raw.getScore();
            double speedup = one.getScore() / two.getScore();
            s.append(String.format("- %s: %,.0f M objects/s on one thread (%s); walk/raw scan %.2f (%s); 2 threads %.2f × faster than 1 (%s).%n",
                    source, rate / 1e6, rate >= 100e6 ? "met" : "missed", ratio, ratio <= 2 ? "met" : "missed", speedup,
                    speedup >= 1.7 ? "met" : "missed"));
        }
        return s.toString();
    }

    private void row(StringBuilder s, String source, String what, Result<?> r, double rawMs) {
        if (r == null) {
            return;
        }
        double seconds = r.getScore() / 1000;
        s.append(String.format("| %s | %s | %s | %,.1f M | %.2f GiB/s | %s |%n", source, what, time(r), heap.objects() / seconds / 1e6,
                scannedBytes / GIB / seconds, r.getScore() == rawMs ? "1.00" : String.format("**%.2f**", r.getScore() / rawMs)));
    }

    private static String time(Result<?> r) {
        double error = r.getScoreError();
        return Double.isNaN(error) ? String.format("%,.1f ms", r.getScore()) : String.format("%,.1f ± %,.1f ms", r.getScore(), error);
    }
}
