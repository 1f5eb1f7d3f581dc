package io.clrheap.layout.view.bench;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.layout.view.HeapSegment;
import io.clrheap.layout.view.ViewFactory;
import io.clrheap.layout.view.ViewType;
import io.clrheap.memory.Memory;
import io.clrheap.memory.SegmentMemory;
import java.lang.foreign.Arena;
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
 * A generated {@link HeapSegment} view against a hand-written reader of the same four fields, both walking the
 * same chain of 4096 region descriptors in off-heap memory.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ViewBenchmark {

    static final int SEGMENTS = 4096;
    static final long BASE = 0x7f5500000000L;

    private Arena arena;
    private Memory memory;
    private ViewType<HeapSegment> view;
    private HandWrittenHeapSegmentReader handWritten;
    private long stride;

    @Setup(Level.Trial)
    public void setUp() {
        RuntimeLayout layout = ProfileLoader.builtIn().load(RuntimeVersion.NET8, GcFlavor.SERVER);
        stride = layout.type("heap_segment").size().getAsLong();
        arena = Arena.ofConfined();
        SegmentMemory m = SegmentMemory.allocate(BASE, stride * SEGMENTS, arena, "benchmark heap_segment chain");
        for (int i = 0; i < SEGMENTS; i++) {
            long seg = BASE + i * stride;
            m.writeLong(seg + layout.offset("heap_segment", "allocated"), 0x1000L * i + 0x800);
            m.writeLong(seg + layout.offset("heap_segment", "mem"), 0x1000L * i + 0x28);
            m.writeLong(seg + layout.offset("heap_segment", "flags"), i & 1);
            m.writeLong(seg + layout.offset("heap_segment", "next"), i + 1 < SEGMENTS ? seg + stride : 0);
        }
        memory = m;
        view = new ViewFactory(layout).bind(HeapSegment.class, memory);
        handWritten = new HandWrittenHeapSegmentReader(memory);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    /** Follows the chain through generated views: one view object per segment, as walker code does. */
    @Benchmark
    public long generatedView() {
        long sum = 0;
        for (long a = BASE; a != 0; ) {
            HeapSegment seg = view.at(a);
            sum += seg.allocated() - seg.mem() + seg.flags();
            a = seg.next();
        }
        return sum;
    }

    /** The same walk with offsets written by hand. */
    @Benchmark
    public long handWrittenReader() {
        long sum = 0;
        for (long a = BASE; a != 0; ) {
            sum += handWritten.allocated(a) - handWritten.mem(a) + handWritten.flags(a);
            a = handWritten.next(a);
        }
        return sum;
    }
}
