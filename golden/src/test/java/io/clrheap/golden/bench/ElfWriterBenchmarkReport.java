package io.clrheap.golden.bench;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.generator.elf.ElfCoreWriter;
import io.clrheap.layout.view.bench.BenchmarksFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link ElfWriterBenchmark} and writes the ELF writer's section of the benchmarks file given as argument: the
 * writer's throughput (the core's size per second) as a ratio of copying a file of the same size. The core is written
 * once here, to know its size, and a dense file of that size (the core's bytes, every one written) is made for the
 * copies.
 */
public final class ElfWriterBenchmarkReport {

    static final String HEADING = "## ELF core writer: writing the core of a ≥ 1 GiB heap vs copying a file of the same size";
    static final int FORKS = 1;
    static final int WARMUPS = 2;
    static final int MEASUREMENTS = 5;
    static final String MAX_HEAP = "-Xmx2g";
    private static final double GIB = 1 << 30;

    private ElfWriterBenchmarkReport() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "BENCHMARKS.md");
        Path dir = Path.of("target", "bench");
        Files.createDirectories(dir);
        Path core = dir.resolve("elf-writer.core");
        Path dense = dir.resolve("elf-writer-dense.bin");
        System.out.println("ELF writer benchmark: building " + WalkerBenchHeap.scenario().name() + " and writing " + core + " ...");
        EmulatedRuntime runtime = new RuntimeBuilder().build(WalkerBenchHeap.scenario());
        long memory = ElfCoreWriter.memoryBytes(runtime);
        ElfCoreWriter.write(runtime, core);
        runtime = null;
        System.gc();
        long size = Files.size(core);
        long onDisk = blocksOnDisk(core) * 512;
        writeDense(core, dense);
        Files.delete(core);

        Options options = new OptionsBuilder()
                .include(ElfWriterBenchmark.class.getName())
                .forks(FORKS).warmupIterations(WARMUPS).measurementIterations(MEASUREMENTS)
                .jvmArgsAppend("--enable-native-access=ALL-UNNAMED", MAX_HEAP, "-Dclrheap.bench.dense=" + dense.toAbsolutePath())
                .build();
        Map<String, Result<?>> scores = new HashMap<>();
        String loadBefore = loadAverage();
        try {
            for (RunResult r : new Runner(options).run()) {
                String name = r.getParams().getBenchmark();
                scores.put(name.substring(name.lastIndexOf('.') + 1), r.getPrimaryResult());
            }
        } finally {
            Files.deleteIfExists(dense);
        }
        String section = render(scores, size, onDisk, memory, loadBefore, loadAverage());
        System.out.println();
        System.out.println(section);
        BenchmarksFile.writeSection(out, section);
        System.out.println("wrote " + out.toAbsolutePath());
    }

    /** The core's bytes into a file where every byte is written (no holes): the file the baselines copy. */
    private static void writeDense(Path from, Path to) throws IOException {
        try (FileChannel in = FileChannel.open(from, StandardOpenOption.READ);
                FileChannel outChannel = FileChannel.open(to, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
            while (in.read(buffer.clear()) > 0) {
                buffer.flip();
                while (buffer.hasRemaining()) {
                    outChannel.write(buffer);
                }
            }
        }
    }

    /** Blocks of 512 bytes a file takes on disk ({@code stat -c %b}), or -1 when stat cannot tell. */
    static long blocksOnDisk(Path file) {
        try {
            Process p = new ProcessBuilder("stat", "-c", "%b", file.toString()).redirectErrorStream(true).start();
            String text = new String(p.getInputStream().readAllBytes()).trim();
            return p.waitFor() == 0 && text.matches("\\d+") ? Long.parseLong(text) : -1;
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** The 1-minute load average ({@code /proc/loadavg}), or "?" where there is none: the machines these run on are shared. */
    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    static String render(Map<String, Result<?>> scores, long size, long onDisk, long memory, String loadBefore, String loadAfter) {
        StringBuilder s = new StringBuilder();
        s.append(HEADING).append("\n\n");
        s.append(String.format("Reproduce: `./clrheap bench` (JMH single shot: %d fork × (%d warm-up + %d measured) shots per benchmark, "
                        + "forks run with `%s`; %s, %d CPUs; load average %s at the start, %s at the end).%n%n", FORKS, WARMUPS, MEASUREMENTS,
                MAX_HEAP, Runtime.version(), Runtime.getRuntime().availableProcessors(), loadBefore, loadAfter));
        s.append(String.format("`ElfCoreWriter.write` of the heap of the walker benchmark below (%s; %,d bytes of process memory, %.2f GiB), "
                        + "built once per fork: a core of %,d bytes (%.2f GiB), %s on disk (pages of zeros are holes). The baseline: "
                        + "`Files.copy` of a dense file of the same size (every byte written, no holes) on the same disk, into the same "
                        + "folder; `FileChannel.transferTo` of it for context. Before each shot the previous shot's file is deleted, outside the "
                        + "timing (with it still in place, its dirty pages and the new file's together passed the kernel's dirty-page limit "
                        + "here and the writes ran at the disk's speed: 10–25 s a shot for the core). Throughput: the file's size per "
                        + "second.%n%n",
                WalkerBenchHeap.scenario().description(), memory, memory / GIB, size, size / GIB,
                onDisk < 0 ? "(size on disk unknown)" : String.format("%,d bytes (%.2f GiB)", onDisk, onDisk / GIB)));
        s.append("| | time per shot | throughput | ratio to `Files.copy` (throughput) |\n|---|---|---|---|\n");
        Result<?> copy = scores.get("filesCopy");
        row(s, "`Files.copy` (baseline)", copy, copy, size);
        row(s, "`FileChannel.transferTo`", scores.get("transferTo"), copy, size);
        row(s, "write the ELF core", scores.get("writeCore"), copy, size);
        Result<?> write = scores.get("writeCore");
        if (copy != null && write != null) {
            double ratio = copy.getScore() / write.getScore();
            s.append(String.format("%nTarget (issue 9): the writer at ≥ 50 %% of the throughput of copying a file of the same size. %s: %.0f %%.%n",
                    ratio >= 0.5 ? "Met" : "Missed", 100 * ratio));
        }
        return s.toString();
    }

    private static void row(StringBuilder s, String what, Result<?> r, Result<?> baseline, long size) {
        if (r == null) {
            return;
        }
        double error = r.getScoreError();
        String time = Double.isNaN(error) ? String.format("%,.0f ms", r.getScore()) : String.format("%,.0f ± %,.0f ms", r.getScore(), error);
        String ratio = baseline == null ? "—" : r == baseline ? "1.00" : String.format("**%.2f**", baseline.getScore() / r.getScore());
        s.append(String.format("| %s | %s | %.2f GiB/s | %s |%n", what, time, size / GIB / (r.getScore() / 1000), ratio));
    }
}
