package io.clrheap.emulator.bench;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.scenario.Scenario;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Building the ≥ 1 GiB, ≥ 20 M object heap of {@link BigHeapScenario} against the least any builder of that heap
 * must do: get the same number of bytes of native memory, zeroed. One build takes seconds, so each is a single shot.
 *
 * <p>The baseline's byte count is the build's own {@code AddressSpace.allocatedBytes()}: the 64 KiB chunks the
 * build touched, which is what it really had to zero and write (the untouched bodies of its LOH arrays cost it
 * nothing, so counting them would flatter the build).
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class EmulatorBuildBenchmark {

    /** The chunk size {@code AddressSpace} works in. */
    static final int CHUNK = 64 << 10;

    /** The scenario, and the last build: checked against the targets and dropped between shots, outside the timing. */
    @State(Scope.Benchmark)
    public static class Build {
        final Scenario scenario = BigHeapScenario.build();
        EmulatedRuntime last;
        private boolean checked;

        @TearDown(Level.Iteration)
        public void checkAndRelease() {
            if (!checked) {
                BigHeapScenario.checkTargets(last.groundTruth());
                checked = true;
            }
            last = null;
            releaseNativeMemory();
        }
    }

    /** How many bytes the build touches (learned from one build in setup), and the arena of the current shot. */
    @State(Scope.Benchmark)
    public static class ZeroFill {
        long bytes;
        Arena arena;

        @Setup(Level.Trial)
        public void measureBuild() {
            EmulatedRuntime runtime = new RuntimeBuilder().build(BigHeapScenario.build());
            BigHeapScenario.checkTargets(runtime.groundTruth());
            bytes = runtime.memory().allocatedBytes();
            runtime = null;
            releaseNativeMemory();
        }

        @TearDown(Level.Iteration)
        public void free() {
            arena.close();
            arena = null;
        }
    }

    @Benchmark
    public void buildScenario(Build state, Blackhole blackhole) {
        EmulatedRuntime runtime = new RuntimeBuilder().build(state.scenario);
        state.last = runtime;
        blackhole.consume(runtime);
    }

    /**
     * The baseline: {@code bytes} of native memory in 64 KiB chunks, 64-byte aligned (the chunk size of
     * {@code AddressSpace}). {@link Arena#allocate(long, long)} zero-fills what it returns (its specification), and that memset, page
     * faults included, is the cost measured; filling again would add a second pass the build does not make.
     */
    @Benchmark
    public void zeroFill(ZeroFill state, Blackhole blackhole) {
        Arena arena = Arena.ofConfined();
        state.arena = arena; // closed after the shot: the build's memory is not freed inside its shot either
        for (long done = 0; done < state.bytes; done += CHUNK) {
            MemorySegment chunk = arena.allocate(CHUNK, 64);
            blackhole.consume(chunk);
        }
    }

    /**
     * A dropped build's native memory belongs to an automatic arena, freed only once a GC finds it unreachable:
     * collect now, so that the next shot does not start with the previous heap still allocated.
     */
    static void releaseNativeMemory() {
        System.gc();
        try {
            Thread.sleep(200); // the cleaner thread frees the chunks after the GC
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
