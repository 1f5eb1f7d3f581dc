package io.clrheap.golden.bench;

import io.clrheap.cli.ClrheapCommand;
import io.clrheap.walker.source.elf.ElfCore;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * {@code clrheap walk DUMP --stat} on each real dump of {@code golden/real/}, end to end within the JVM: open the
 * core, find the runtime module and its exports, discover the heap, walk it and print the statistics — everything
 * the command does but start the JVM. The baseline, per dump: reading every 8-byte word of the same decompressed core
 * file from a fresh mapping, the least any reader of the dump has to pay.
 *
 * <p>The cores are decompressed once, before the benchmark ({@link RealDumpBenchmarkReport} opens each), so both
 * sides read the same file; a run's output is checked, outside the timing, to be the committed expected output.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class RealDumpBenchmark {

    /** One real dump's folder. */
    @State(Scope.Benchmark)
    public static class Dump {
        @Param({"net8-svr", "net9-wks", "net9-withheap", "net10-svr", "net10-small", "net10-compact"})
        public String name;

        Path coreXz;
        Path decompressed;

        @Setup
        public void locate() throws IOException {
            Path folder = RealDumpBenchmarkReport.realRoot().resolve(name);
            coreXz = folder.resolve("core.xz");
            try (ElfCore core = ElfCore.open(coreXz)) {
                decompressed = core.path(); // the cache folder's entry: the file the walk maps
            }
        }
    }

    @Benchmark
    public long readCore(Dump dump) throws IOException {
        return sumWords(dump.decompressed);
    }

    @Benchmark
    public int walkStat(Dump dump) {
        ClrheapCommand.Outcome outcome = ClrheapCommand.run("walk", dump.coreXz.toString(), "--stat", "-q");
        if (outcome.exitCode() != 0) {
            throw new IllegalStateException("walk " + dump.coreXz + " --stat exited " + outcome.exitCode() + ": " + outcome.err());
        }
        return outcome.out().length();
    }

    /** Sums every 8-byte word of a file through a mapping of its own (closed afterwards: a fresh mapping per call). */
    static long sumWords(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ); Arena arena = Arena.ofConfined()) {
            MemorySegment bytes = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
            long words = bytes.byteSize() / 8;
            long sum = 0;
            for (long i = 0; i < words; i++) {
                sum += bytes.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i);
            }
            return sum;
        }
    }
}
