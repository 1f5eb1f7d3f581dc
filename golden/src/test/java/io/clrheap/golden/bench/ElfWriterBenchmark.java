package io.clrheap.golden.bench;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.generator.elf.ElfCoreWriter;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Writing the ELF core of a ≥ 1 GiB heap ({@link WalkerBenchHeap}, built once per fork) against copying a file of the
 * same size on the same disk: a dense file (every byte written, no holes) of the core's size, written once by
 * {@link ElfWriterBenchmarkReport} and named by the system property {@code clrheap.bench.dense}. Each shot writes
 * or copies into the same folder, the previous shot's file deleted first (outside the timing).
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ElfWriterBenchmark {

    /** The heap's emulated process, built once per fork. */
    @State(Scope.Benchmark)
    public static class Heap {
        EmulatedRuntime process;

        @Setup(Level.Trial)
        public void build() {
            process = new RuntimeBuilder().build(WalkerBenchHeap.scenario());
        }
    }

    /** The dense source file and where the shots write. */
    @State(Scope.Benchmark)
    public static class Disk {
        Path dense;
        Path target;

        @Setup(Level.Trial)
        public void open() {
            dense = Path.of(System.getProperty("clrheap.bench.dense", "target/bench/elf-writer-dense.bin"));
            target = dense.resolveSibling("elf-writer-out.bin");
        }

        /**
         * Each shot starts with no file in its place (outside the timing), as {@code Files.copy} would make it: with the
         * previous shot's file still there, its dirty pages and the new file's together passed the kernel's dirty-page
         * limit on the machine these figures come from, and every write then ran at the disk's speed (10-25 s a shot).
         */
        @Setup(Level.Invocation)
        public void clear() throws IOException {
            Files.deleteIfExists(target);
        }

        @TearDown(Level.Trial)
        public void delete() throws IOException {
            Files.deleteIfExists(target);
        }
    }

    /** The core of the heap, through a temporary file moved into place as {@code clrheap generate} writes it. */
    @Benchmark
    public long writeCore(Heap heap, Disk disk) throws IOException {
        ElfCoreWriter.write(heap.process, disk.target);
        return Files.size(disk.target);
    }

    /** The baseline: {@code Files.copy} of the dense file of the core's size. */
    @Benchmark
    public long filesCopy(Disk disk) throws IOException {
        Files.copy(disk.dense, disk.target, StandardCopyOption.REPLACE_EXISTING);
        return Files.size(disk.target);
    }

    /** Context: {@code FileChannel.transferTo} of the same file. */
    @Benchmark
    public long transferTo(Disk disk) throws IOException {
        try (FileChannel in = FileChannel.open(disk.dense, StandardOpenOption.READ);
                FileChannel out = FileChannel.open(disk.target, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
            long size = in.size();
            for (long at = 0; at < size; ) {
                at += in.transferTo(at, size - at, out);
            }
            return size;
        }
    }
}
