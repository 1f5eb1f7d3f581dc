package io.clrheap.emulator.bench;

import io.clrheap.emulator.truth.GroundTruth;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.scenario.Step;
import io.clrheap.emulator.scenario.Step.Lengths;
import io.clrheap.emulator.scenario.Step.Where;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;

/**
 * The heap the emulator benchmark builds: the issue asks for at least 1 GiB of objects and at least 20 million of
 * them. A .NET 8 server-GC process with 4 heaps and 8 threads: mostly gen2 survivors of mixed built-in types (so
 * that the byte total comes from many small objects, as in a real service, not from a few huge arrays whose
 * zero bodies the emulator never writes), some gen0 allocated by the threads through their allocation contexts,
 * and a few LOH arrays.
 */
final class BigHeapScenario {

    static final long MIN_OBJECTS = 20_000_000L;
    static final long MIN_BYTES = 1L << 30;

    private BigHeapScenario() {
    }

    static Scenario build() {
        return Scenario.builder("bench-1gib")
                .description("mostly gen2 survivors of `System.Object`, `Node`, `System.String`, `System.Byte[]`, `System.Int32[]`; "
                        + "gen0 `Pair` and `System.String` allocated by the threads through allocation contexts; 16 LOH byte arrays")
                .runtime(RuntimeVersion.NET8).gc(GcFlavor.SERVER).heaps(4).threads(8).seed(20_000_000L)
                // averages (unaligned): Object 24, Node 48, String 62, Byte[] ~171, Int32[] 88 bytes
                .allocate("System.Object", 4_500_000, Lengths.fixed(0), Where.GEN2)
                .allocate("Node", 4_500_000, Lengths.fixed(0), Where.GEN2)
                .allocate("System.String", 4_000_000, Lengths.uniform(0, 40), Where.GEN2)
                .allocate("System.Byte[]", 3_000_000, Lengths.logUniform(0, 1024), Where.GEN2)
                .allocate("System.Int32[]", 3_000_000, Lengths.uniform(0, 32), Where.GEN2)
                // gen0: the JIT_New fast path and, every 8 KiB, the slow path
                .allocate("Pair", 1_000_000, Lengths.fixed(0), Where.GEN0)
                .allocate("System.String", 1_000_000, Lengths.uniform(0, 32), Where.GEN0)
                .allocate(new Step.Allocate("System.Byte[]", 16, Lengths.uniform(100_000, 1_000_000), Where.LOH, -1, 0))
                .build();
    }

    /** Fails loudly when a build fell short of the targets: a benchmark of a smaller heap would prove nothing. */
    static void checkTargets(GroundTruth truth) {
        long objects = truth.objectCount();
        long bytes = truth.totalBytes();
        if (objects < MIN_OBJECTS || bytes < MIN_BYTES) {
            throw new IllegalStateException(String.format(
                    "the benchmark heap is too small: %,d objects and %,d bytes; the issue asks for at least %,d objects and %,d bytes",
                    objects, bytes, MIN_OBJECTS, MIN_BYTES));
        }
    }
}
