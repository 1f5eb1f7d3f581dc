package io.clrheap.golden.bench;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.generator.elf.ElfCoreWriter;
import io.clrheap.layout.view.bench.BenchmarksFile;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.walk.WalkSummary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link WalkerBenchmark} and writes the walker's section of the benchmarks file given as argument: the walk's
 * objects/s and bytes/s, its time as a ratio of a raw scan of the same memory, and the region-parallel walk on 2
 * threads against 1. The heap is built and written as an ELF core once, here, for all the forks to map.
 */
public final class WalkerBenchmarkReport {

    static final String HEADING = "## Walker: walking a ≥ 20 M object heap vs a raw scan of the same memory";
    static final int FORKS = 1;
    static final int WARMUPS = 2;
    static final int MEASUREMENTS = 4;
    static final String MAX_HEAP = "-Xmx3g";

    private WalkerBenchmarkReport() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "BENCHMARKS.md");
        Path dir = Path.of("target", "bench");
        Files.createDirectories(dir);
        Path core = dir.resolve("walker-bench.core");
        System.out.println("walker benchmark: building " + WalkerBenchHeap.scenario().name() + " and writing " + core + " ...");
        EmulatedRuntime runtime = new RuntimeBuilder().build(WalkerBenchHeap.scenario());
        ElfCoreWriter.write(runtime, core);
        HeapWalker walker = WalkerBenchHeap.walker(runtime);
        WalkSummary summary = walker.walk((a, mt, size, r) -> { });
        long scanned = WalkerBenchHeap.bytes(WalkerBenchHeap.presentParts(walker.regions(), runtime.memory()));
        int regions = walker.regions().size();
        long coreBytes = Files.size(core);
        runtime = null;
        walker = null;
        System.gc();

        Options options = new OptionsBuilder()
                .include(WalkerBenchmark.class.getName())
                .forks(FORKS).warmupIterations(WARMUPS).measurementIterations(MEASUREMENTS)
                .warmupTime(org.openjdk.jmh.runner.options.TimeValue.seconds(1))
                .measurementTime(org.openjdk.jmh.runner.options.TimeValue.seconds(1))
                .jvmArgsAppend("--enable-native-access=ALL-UNNAMED", MAX_HEAP, "-Dclrheap.bench.core=" + core.toAbsolutePath())
                .build();
        Map<String, Result<?>> scores = new HashMap<>();
        for (RunResult r : new Runner(options).run()) {
            String name = r.getParams().getBenchmark();
            String source = r.getParams().getParam("source");
            scores.put(name.substring(name.lastIndexOf('.') + 1) + (source == null ? "" : "/" + source), r.getPrimaryResult());
        }
        String section = new WalkerReportSection(scores, summary, scanned, regions, coreBytes).render();
        System.out.println();
        System.out.println(section);
        BenchmarksFile.writeSection(out, section);
        System.out.println("wrote " + out.toAbsolutePath());
        Files.deleteIfExists(core);
    }
}
