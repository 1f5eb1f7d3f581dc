package io.clrheap.emulator.gc;

import io.clrheap.emulator.process.Process;
import io.clrheap.emulator.scenario.TypeDef;
import io.clrheap.emulator.truth.FieldTruth;
import io.clrheap.value.ElementType;
import io.clrheap.emulator.truth.GroundTruth;
import io.clrheap.emulator.truth.ReferenceLayout;
import io.clrheap.emulator.types.TypeSystem;
import java.util.List;
import java.util.Map;
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
 * chains, cycles). A reference in a typed field (or an element of an array of a declared element type) points only at
 * an object of that type or of a class derived from it (a {@code String} field at a string), or is null when the
 * heap has none: a reader that reads it as its declared type finds one. Objects of types with finalizers are
 * registered in their heap's finalization queue, a quarter of them as ready for finalization.
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
        Map<Long, List<FieldTruth>> fields = types.fields();
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
                List<FieldTruth> typed = fields.get(mt);
                String elementType = type != null && type.shape() == TypeDef.Shape.REFERENCE_ARRAY && type.name().endsWith("[]")
                        ? type.name().substring(0, type.name().length() - 2) : null;
                layout.forEachOffset(size, offset -> {
                    // null written too: an object placed over swept space finds the old bytes there
                    boolean isNull = offset != last[0] && (sparse ? random.nextInt(8) != 0 : random.nextInt(4) == 0);
                    String declared = typed != null ? declaredAt(typed, offset) : elementType;
                    memory.writePointer(self + offset, isNull ? 0 : target(self, state.previous, pool, declared));
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

    /**
     * The declared type of the reference field at {@code offset}, or null when it is no typed field's: a struct's row
     * shares its offset with its first field's, and only the field holds the reference.
     */
    private static String declaredAt(List<FieldTruth> fields, long offset) {
        for (FieldTruth f : fields) {
            if (f.offset() == offset && ElementType.isReference(f.storedType())) {
                return f.declaredType();
            }
        }
        return null;
    }

    /** Tries before a typed reference falls back to a scan of the pool (and to null when the pool has no such object). */
    private static final int TYPED_TRIES = 16;

    /** A target for a reference declared {@code declared} (null or System.Object: any object). */
    private long target(long self, long previous, long[] pool, String declared) {
        if (declared == null || declared.equals("System.Object")) {
            return target(self, previous, pool);
        }
        for (int i = 0; i < TYPED_TRIES; i++) {
            long t = target(self, previous, pool);
            if (isA(t, declared)) {
                return t;
            }
        }
        long[] candidates = objectsOf(declared);
        return candidates.length == 0 ? 0 : candidates[random.nextInt(candidates.length)];
    }

    /** At most this many objects of one declared type are indexed. */
    private static final int MAX_INDEXED = 1 << 16;

    private final Map<String, long[]> byDeclaredType = new java.util.HashMap<>();

    /**
     * Objects that are a {@code declared} (the pool is a sample: it may hold none), from one pass over every object
     * the first time the type is asked for; at most {@link #MAX_INDEXED}.
     */
    private long[] objectsOf(String declared) {
        long[] known = byDeclaredType.get(declared);
        if (known != null) {
            return known;
        }
        List<Long> found = new java.util.ArrayList<>();
        process.truth().forEachObject((address, mt, size, generation, heap, kind) -> {
            if (kind == GroundTruth.Kind.OBJECT && found.size() < MAX_INDEXED && isA(address, declared)) {
                found.add(address);
            }
        });
        long[] result = found.stream().mapToLong(Long::longValue).toArray();
        byDeclaredType.put(declared, result);
        return result;
    }

    /** Whether the object at {@code address} is a {@code declared} (its type or a base class of it has that name). */
    private boolean isA(long address, String declared) {
        TypeDef t = types.typeAt(process.memory().readLong(address));
        for (int depth = 0; t != null && depth < 64; depth++, t = t.parent()) {
            if (t.name().equals(declared)) {
                return true;
            }
        }
        return false;
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
