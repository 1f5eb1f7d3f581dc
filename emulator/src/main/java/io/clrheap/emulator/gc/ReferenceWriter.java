package io.clrheap.emulator.gc;

import io.clrheap.emulator.process.Process;
import io.clrheap.emulator.scenario.TypeDef;
import io.clrheap.emulator.truth.GroundTruth;
import io.clrheap.emulator.truth.ReferenceLayout;
import io.clrheap.emulator.types.TypeSystem;
import java.util.List;
import java.util.Random;

/**
 * The object graph, written once every object is in place (so that a reference never points at an object a later
 * collection turns into free space): one pass over the objects in address order fills each reference field its
 * type's GC descriptor names, deterministically from the scenario's seed. A field stays null a quarter of the time,
 * an array's element seven times in eight (sparse arrays keep the golden corpus small), but an object's last
 * reference never does (so that the shapes walkers get wrong always have a reference: the last word of an object,
 * the last element of an array of structs). A reference points at the object just before
 * (chains, cross-generation and cross-heap where regions meet), at the object itself (a cycle), at a frozen string
 * literal, or at one of 4,096 objects sampled over every heap and generation (cross-heap, cross-generation; with the
 * chains, cycles). Objects of types with finalizers are registered in their heap's finalization queue, a quarter of
 * them as ready for finalization.
 */
final class ReferenceWriter {

    private final Process process;
    private final TypeSystem types;
    private final long[] frozen;
    private final Random random;

    ReferenceWriter(Process process, TypeSystem types, long[] frozen, Random random) {
        this.process = process;
        this.types = types;
        this.frozen = frozen;
        this.random = random;
    }

    /** Writes the references and fills {@code heaps}' finalization queues. */
    void write(List<Heap> heaps) {
        GroundTruth truth = process.truth();
        var memory = process.memory();
        long[] pool = truth.sampleObjects(4096, random);
        var state = new Object() {
            long previous;
        };
        truth.forEachObject((address, mt, size, generation, heap, kind) -> {
            if (kind != GroundTruth.Kind.OBJECT) {
                return;
            }
            ReferenceLayout layout = truth.referenceLayout(mt);
            TypeDef type = types.typeAt(mt);
            if (layout != null) {
                boolean sparse = type != null && type.hasComponents();
                long[] last = {-1};
                layout.forEachOffset(size, offset -> last[0] = offset);
                long self = address;
                layout.forEachOffset(size, offset -> {
                    // null written too: an object placed over swept space finds the old bytes there
                    boolean isNull = offset != last[0] && (sparse ? random.nextInt(8) != 0 : random.nextInt(4) == 0);
                    memory.writePointer(self + offset, isNull ? 0 : target(self, state.previous, pool));
                });
            }
            if (type != null && type.finalizer() && generation >= 0) {
                FinalizationQueue queue = heaps.get(heap).finalization;
                if (random.nextInt(4) == 0) {
                    queue.ready(address);
                } else {
                    queue.register(generation, address);
                }
            }
            state.previous = address;
        });
    }

    private long target(long self, long previous, long[] pool) {
        if (pool.length == 0) {
            return self;
        }
        int pick = random.nextInt(20);
        if (pick < 6 && previous != 0) {
            return previous;
        }
        if (pick == 6) {
            return self;
        }
        if (pick < 9 && frozen.length > 0) {
            return frozen[random.nextInt(frozen.length)];
        }
        return pool[random.nextInt(pool.length)];
    }
}
