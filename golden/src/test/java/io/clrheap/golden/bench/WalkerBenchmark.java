package io.clrheap.golden.bench;

import io.clrheap.layout.RuntimeLayout;
import io.clrheap.walker.graph.ObjectReferences;
import io.clrheap.walker.graph.ReferenceSink;
import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.memory.Memory;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.report.DumpHeapStat;
import io.clrheap.walker.source.elf.ElfCore;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.walk.ObjectVisitor;
import io.clrheap.walker.walk.WalkSummary;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Walking the ≥ 20 M object heap of {@link WalkerBenchHeap} against a raw scan of the same memory, through the
 * same {@link Memory}: reading every 8-byte word of every region's {@code [mem, end)} — the bytes the walk covers.
 * The memory is either the ELF core of that heap (memory-mapped, as {@code clrheap walk} reads it; written once by
 * {@link WalkerBenchmarkReport} and named by the system property {@code clrheap.bench.core}) or the emulator's
 * address space the core was written from.
 *
 * <p>Every benchmark returns what it computed, so that nothing is optimised away; each walk is checked, outside the
 * timing, to have visited the number of objects the first one did.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class WalkerBenchmark {

    /** The heap's memory and its walker. */
    @State(Scope.Benchmark)
    public static class Heap {
        @Param({"elf", "emulated"})
        public String source;

        HeapWalker walker;
        long[] parts;
        Memory memory;
        RuntimeLayout layout;
        private ElfCore core;
        private EmulatedRuntime runtime;

        @Setup(Level.Trial)
        public void open() throws Exception {
            if (source.equals("elf")) {
                core = ElfCore.open(corePath());
                walker = WalkerBenchHeap.walker(core, core.mappedFiles());
                memory = core;
                layout = WalkerBenchHeap.layout(core, core.mappedFiles());
            } else {
                runtime = new RuntimeBuilder().build(WalkerBenchHeap.scenario());
                walker = WalkerBenchHeap.walker(runtime);
                memory = runtime.memory();
                layout = runtime.layout();
            }
            parts = WalkerBenchHeap.presentParts(walker.regions(), memory);
            long objects = walker.walk((a, mt, size, r) -> { }).objects();
            if (objects < WalkerBenchHeap.MIN_OBJECTS) {
                throw new IllegalStateException(String.format("the benchmark heap holds %,d objects; the issue asks for at least %,d",
                        objects, WalkerBenchHeap.MIN_OBJECTS));
            }
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            if (core != null) {
                core.close();
            }
        }
    }

    /** The core file mapped whole, for the machine's own limit: summing its words with no address translation. */
    @State(Scope.Benchmark)
    public static class CoreFile {
        Arena arena;
        MemorySegment file;

        @Setup(Level.Trial)
        public void map() throws IOException {
            arena = Arena.ofShared();
            try (FileChannel channel = FileChannel.open(corePath(), StandardOpenOption.READ)) {
                file = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
            }
        }

        @TearDown(Level.Trial)
        public void unmap() {
            arena.close();
        }
    }

    static Path corePath() {
        String path = System.getProperty("clrheap.bench.core");
        if (path == null) {
            throw new IllegalStateException("-Dclrheap.bench.core=FILE names the benchmark heap's ELF core (WalkerBenchmarkReport writes it)");
        }
        return Path.of(path);
    }

    /** Sums the sizes of the objects it is shown: the least a visitor can do. */
    static final class Sum implements ObjectVisitor {
        long bytes;

        @Override
        public void object(long address, long methodTable, long size, Region region) {
            bytes += size;
        }
    }

    /**
     * The baseline: every 8-byte word of every region's {@code [mem, end)} the memory holds, read through the same
     * memory as the walk reads it (the fastest way it offers: {@link Memory#contiguous} views where it has them).
     */
    @Benchmark
    public long rawScan(Heap heap) {
        Memory memory = heap.memory;
        long[] parts = heap.parts;
        long sum = 0;
        for (int i = 0; i < parts.length; i += 2) {
            long a = parts[i];
            long end = parts[i + 1];
            while (a < end) {
                java.lang.foreign.MemorySegment view = memory.contiguous(a);
                if (view == null) {
                    sum += memory.readLong(a);
                    a += 8;
                    continue;
                }
                long n = Math.min(view.byteSize(), end - a) & ~7L;
                for (long at = 0; at < n; at += 8) {
                    sum += view.get(ValueLayout.JAVA_LONG_UNALIGNED, at);
                }
                a += Math.max(n, 8);
            }
        }
        return sum;
    }

    /** The walk on one thread, with the cheapest visitor. */
    @Benchmark
    public WalkSummary walk(Heap heap) {
        Sum sum = new Sum();
        WalkSummary s = heap.walker.walk(sum);
        return s.bytes() == sum.bytes ? s : null;
    }

    /**
     * What {@code walk --refs} reads: the walk, and every object's references from its GC descriptor (the targets
     * summed, not printed), on one thread. Its ratio to {@link #walk} is the cost of the object graph's edges.
     */
    @Benchmark
    public long refs1(Heap heap) {
        ObjectReferences references = new ObjectReferences(heap.memory, heap.layout);
        long[] sum = {0};
        ReferenceSink sink = (from, offset, to) -> sum[0] += to;
        heap.walker.walk((address, mt, size, region) -> references.references(address, mt, size, region, sink));
        return sum[0];
    }

    /** What {@code walk --stat} does: objects and bytes per MethodTable, regions walked on 1 thread. */
    @Benchmark
    public long stat1(Heap heap) throws InterruptedException {
        return stat(heap, 1);
    }

    /** The same on 2 threads (this machine's cores): the region-parallel walk. */
    @Benchmark
    public long stat2(Heap heap) throws InterruptedException {
        return stat(heap, 2);
    }

    private static long stat(Heap heap, int threads) throws InterruptedException {
        DumpHeapStat all = new DumpHeapStat();
        heap.walker.walkRegions(DumpHeapStat::new, all::merge, threads);
        return all.objects();
    }

    /** Context: the whole core file's words summed straight from its mapping (no ranges, no interface). */
    @Benchmark
    public long fileScan(CoreFile core) {
        MemorySegment file = core.file;
        long sum = 0;
        for (long at = 0, end = file.byteSize() & ~7L; at < end; at += 8) {
            sum += file.get(ValueLayout.JAVA_LONG_UNALIGNED, at);
        }
        return sum;
    }
}
