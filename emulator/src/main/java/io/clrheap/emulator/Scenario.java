package io.clrheap.emulator;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;

/**
 * What to build: the runtime, the GC flavour and heap count, the threads, how many objects of each kind, how much
 * of it is garbage, and the seed every random choice comes from.
 *
 * @param name          short name, e.g. {@code default}
 * @param description   one line
 * @param runtime       .NET 8, 9 or 10
 * @param gc            server or workstation
 * @param heaps         server heaps (1 under workstation GC)
 * @param threads       runtime threads; each allocates its share of gen0 objects through its own allocation context
 * @param gen2Objects   objects in gen2 regions (survivors of earlier GCs)
 * @param gen1Objects   objects in gen1 regions
 * @param gen0Objects   objects allocated by the threads since the last GC
 * @param lohObjects    large objects (each after its 32-byte padding free object)
 * @param pohObjects    pinned-heap objects
 * @param frozenStrings string literals in the frozen segment
 * @param garbage       the fraction of gen1/gen2 objects that died and became free objects
 * @param handlesPerKind GC handles of each kind (strong, weak short, weak long, pinned, dependent) per heap's table
 * @param features      edge cases added to the heap
 * @param seed          the seed of every random choice
 */
public record Scenario(String name, String description, RuntimeVersion runtime, GcFlavor gc, int heaps, int threads,
                       int gen2Objects, int gen1Objects, int gen0Objects, int lohObjects, int pohObjects, int frozenStrings,
                       double garbage, int handlesPerKind, java.util.Set<Feature> features, long seed) {

    public Scenario {
        features = features.isEmpty() ? java.util.Set.of() : java.util.Collections.unmodifiableSet(java.util.EnumSet.copyOf(features));
        if (heaps < 1 || heaps > 64 || (gc == GcFlavor.WORKSTATION && heaps != 1)) {
            throw new IllegalArgumentException("heaps must be 1..64 under server GC and 1 under workstation GC, not " + heaps);
        }
        if (threads < 1 || threads > 1024) {
            throw new IllegalArgumentException("threads must be 1..1024, not " + threads);
        }
        if (gen2Objects < 0 || gen1Objects < 0 || gen0Objects < 0 || lohObjects < 0 || pohObjects < 0 || frozenStrings < 0) {
            throw new IllegalArgumentException("object counts cannot be negative");
        }
        if (handlesPerKind < 0 || handlesPerKind > 64) {
            throw new IllegalArgumentException("handlesPerKind must be 0..64 (one block per kind), not " + handlesPerKind);
        }
        if (garbage < 0 || garbage >= 1) {
            throw new IllegalArgumentException("garbage is a fraction in [0, 1), not " + garbage);
        }
    }

    /** This scenario for another runtime and GC flavour (heaps: 1 under workstation GC). */
    public Scenario on(RuntimeVersion version, GcFlavor flavour) {
        int h = flavour == GcFlavor.WORKSTATION ? 1 : Math.max(heaps, 1);
        return new Scenario(name, description, version, flavour, h, threads, gen2Objects, gen1Objects, gen0Objects, lohObjects,
                pohObjects, frozenStrings, garbage, handlesPerKind, features, seed);
    }

    public boolean has(Feature feature) {
        return features.contains(feature);
    }

    /**
     * The built-in default: 2 server heaps (1 under workstation GC), 3 threads with live allocation contexts, objects
     * in gen0/1/2, LOH and POH, frozen strings, some garbage.
     */
    public static Scenario defaultScenario(RuntimeVersion runtime, GcFlavor gc) {
        return new Scenario("default", "2 heaps under server GC, 3 threads with live allocation contexts, gen0/1/2, LOH, POH, frozen strings, all handle kinds, some garbage",
                runtime, gc, gc == GcFlavor.SERVER ? 2 : 1, 3, 3000, 1500, 2500, 6, 12, 40, 0.2, 4, java.util.Set.of(), 42);
    }
}
