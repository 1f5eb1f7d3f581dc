package io.clrheap.emulator.scenario;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.RuntimeChoice;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What to build: the runtime, the GC flavour and heap count, the threads, the types, how many objects of a mixed
 * population to place in each generation, how much of it is garbage, an allocation program of typed allocations and
 * collections, the handles, the edge cases, and the seed every random choice comes from. Build one with
 * {@link #builder(String)}; docs/scenarios.md gives the JSON form.
 *
 * @param name           short name, e.g. {@code default}
 * @param description    one line
 * @param runtime        .NET 8, 9 or 10
 * @param runtimeBuild   the exact build of {@code runtime} emulated, e.g. {@code 9.0.7} (one the profiles know); empty for
 *                       the version's reference build (8.0.30, 9.0.1, 10.0.9)
 * @param gc             server or workstation
 * @param gcMode         the built-in regions GC, or the standalone segments GC ({@code libclrgc.so}, .NET 9 on Linux)
 * @param heaps          server heaps (1 under workstation GC)
 * @param threads        runtime threads; each allocates its share of gen0 objects through its own allocation context
 * @param gen2Objects    objects of the mixed population in gen2 regions (survivors of earlier GCs)
 * @param gen1Objects    objects of the mixed population in gen1 regions
 * @param gen0Objects    objects of the mixed population the threads allocated since the last GC
 * @param lohObjects     large arrays (each after its 32-byte padding free object)
 * @param pohObjects     pinned-heap arrays
 * @param frozenStrings  string literals in the frozen segment
 * @param garbage        the fraction of the gen1/gen2 population that died and became free objects
 * @param handlesPerKind GC handles of each kind (strong, weak short, weak long, pinned, dependent) per heap's table
 * @param features       edge cases added to the heap
 * @param types          types the program allocates besides the built-in ones ({@link TypeDef#BUILT_IN})
 * @param program        allocations and collections, run in order after the populations are placed
 * @param seed           the seed of every random choice
 */
public record Scenario(String name, String description, RuntimeVersion runtime, String runtimeBuild, GcFlavor gc, GcMode gcMode, int heaps, int threads,
                       long gen2Objects, long gen1Objects, long gen0Objects, long lohObjects, long pohObjects, long frozenStrings,
                       double garbage, int handlesPerKind, Set<Feature> features, List<TypeDef> types, List<Step> program, long seed) {

    public Scenario {
        features = features.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(features));
        runtimeBuild = runtimeBuild == null ? "" : runtimeBuild;
        gcMode = gcMode == null ? GcMode.REGIONS : gcMode;
        if (gcMode == GcMode.SEGMENTS && runtime != RuntimeVersion.NET9) {
            // only the classic 9.0.x packages' libclrgc.so has been read on real dumps (docs/reference/discovery.md section 14)
            throw new IllegalArgumentException("the segments GC (libclrgc.so) is emulated for .NET 9 only, the runtime whose real dumps on it give its layout; not "
                    + runtime.shortName());
        }
        if (!runtimeBuild.isEmpty() && !runtimeBuild.startsWith(runtime.major() + ".")) {
            throw new IllegalArgumentException("runtime build " + runtimeBuild + " is not a build of " + runtime.shortName());
        }
        types = List.copyOf(types);
        program = List.copyOf(program);
        if (name == null || !name.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,63}")) {
            // it names the fixture files (NAME.core, NAME.clrheap.tar.xz ...)
            throw new IllegalArgumentException("a scenario name is 1 to 64 letters, digits, '.', '_' and '-', not '" + name + "'");
        }
        if (heaps < 1 || heaps > 64 || (gc == GcFlavor.WORKSTATION && heaps != 1)) {
            throw new IllegalArgumentException("heaps must be 1..64 under server GC and 1 under workstation GC, not " + heaps);
        }
        if (threads < 1 || threads > 1024) {
            throw new IllegalArgumentException("threads must be 1..1024, not " + threads);
        }
        for (long n : new long[] {gen2Objects, gen1Objects, gen0Objects, lohObjects, pohObjects, frozenStrings}) {
            if (n < 0 || n > 1_000_000_000L) {
                throw new IllegalArgumentException("object counts must be 0..1,000,000,000, not " + n);
            }
        }
        if (handlesPerKind < 0 || handlesPerKind > 64) {
            throw new IllegalArgumentException("handlesPerKind must be 0..64 (one block per kind), not " + handlesPerKind);
        }
        if (!(garbage >= 0 && garbage < 1)) {
            throw new IllegalArgumentException("garbage is a fraction in [0, 1), not " + garbage);
        }
        int needed = features.stream().mapToInt(Feature::threadsNeeded).sum();
        if (needed > threads) {
            throw new IllegalArgumentException(String.format("the features %s need %d threads of their own; the scenario has %d",
                    features.stream().filter(f -> f.threadsNeeded() > 0).map(f -> f.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')).toList(),
                    needed, threads));
        }
        for (Step step : program) {
            if (step instanceof Step.Allocate a && a.heap() >= heaps) {
                throw new IllegalArgumentException("allocate " + a.type() + " on heap " + a.heap() + ": the scenario has " + heaps + " heap(s)");
            }
        }
    }

    /**
     * This scenario for another runtime version (its reference build) and GC flavour (heaps: 1 under workstation GC;
     * program steps for other heaps go to heap 0).
     */
    public Scenario on(RuntimeVersion version, GcFlavor flavour) {
        return on(RuntimeChoice.of(version), flavour);
    }

    /** This scenario for another runtime (a version's reference build, or an exact build) and GC flavour, as {@link #on(RuntimeVersion, GcFlavor)}. */
    public Scenario on(RuntimeChoice choice, GcFlavor flavour) {
        int h = flavour == GcFlavor.WORKSTATION ? 1 : heaps;
        List<Step> steps = program.stream().map(s -> s instanceof Step.Allocate a && a.heap() >= h
                ? (Step) new Step.Allocate(a.type(), a.count(), a.lengths(), a.where(), 0, a.dies()) : s).toList();
        return toBuilder().runtime(choice).gc(flavour).heaps(h).program(steps).build();
    }

    /** The runtime as {@code --runtime} names it: the version (its reference build) or the exact build. */
    public RuntimeChoice runtimeChoice() {
        return new RuntimeChoice(runtime, runtimeBuild);
    }

    /** The runtime's name in file names and messages: {@code net9} for a version's reference build, {@code 9.0.7} for a build. */
    public String runtimeName() {
        return runtimeChoice().name();
    }

    public boolean has(Feature feature) {
        return features.contains(feature);
    }

    /**
     * The objects the scenario asks for: its populations, frozen strings and the program's allocations (what progress is
     * measured against; the build places about as many: edge cases add a few, gaps and collections change the count).
     */
    public long declaredObjects() {
        long n = gen2Objects + gen1Objects + gen0Objects + lohObjects + pohObjects + frozenStrings;
        for (Step step : program) {
            if (step instanceof Step.Allocate a) {
                n += a.count();
            }
        }
        return n;
    }

    public Builder toBuilder() {
        Builder b = new Builder(name).description(description).runtime(runtime).runtimeBuild(runtimeBuild).gc(gc).gcMode(gcMode).heaps(heaps).threads(threads)
                .objects(gen2Objects, gen1Objects, gen0Objects, lohObjects, pohObjects).frozenStrings(frozenStrings)
                .garbage(garbage).handlesPerKind(handlesPerKind).features(features).seed(seed);
        b.types.addAll(types);
        b.program.addAll(program);
        return b;
    }

    /** A scenario with nothing in it yet: .NET 8, server GC, 1 heap, 1 thread, no objects, no handles, seed 1. */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /**
     * The built-in default: 2 server heaps (1 under workstation GC), 3 threads with live allocation contexts, objects
     * in gen0/1/2, LOH and POH, frozen strings, all handle kinds, some garbage.
     */
    public static Scenario defaultScenario(RuntimeVersion runtime, GcFlavor gc) {
        return defaultScenario(RuntimeChoice.of(runtime), gc);
    }

    /** The built-in default on a version's reference build or an exact build. */
    public static Scenario defaultScenario(RuntimeChoice runtime, GcFlavor gc) {
        return builder("default")
                .description("2 heaps under server GC, 3 threads with live allocation contexts, gen0/1/2, LOH, POH, frozen strings, all handle kinds, some garbage")
                .runtime(runtime).gc(gc).heaps(gc == GcFlavor.SERVER ? 2 : 1).threads(3)
                .objects(3000, 1500, 2500, 6, 12).frozenStrings(40).garbage(0.2).handlesPerKind(4).seed(42).build();
    }

    /** The Java form of a scenario (the JSON form has the same keys). */
    public static final class Builder {
        private String name;
        private String description = "";
        private RuntimeVersion runtime = RuntimeVersion.NET8;
        private String runtimeBuild = "";
        private GcFlavor gc = GcFlavor.SERVER;
        private GcMode gcMode = GcMode.REGIONS;
        private int heaps = 1;
        private int threads = 1;
        private long gen2;
        private long gen1;
        private long gen0;
        private long loh;
        private long poh;
        private long frozenStrings;
        private double garbage;
        private int handlesPerKind;
        private Set<Feature> features = Set.of();
        private final List<TypeDef> types = new ArrayList<>();
        private final List<Step> program = new ArrayList<>();
        private long seed = 1;

        private Builder(String name) {
            this.name = name;
        }

        public Builder name(String v) {
            name = v;
            return this;
        }

        public Builder description(String v) {
            description = v;
            return this;
        }

        /** The version, as its reference build. */
        public Builder runtime(RuntimeVersion v) {
            runtime = v;
            runtimeBuild = "";
            return this;
        }

        /** The version and, when not its reference build, the exact build. */
        public Builder runtime(RuntimeChoice v) {
            runtime = v.version();
            runtimeBuild = v.build();
            return this;
        }

        /** The exact build of the version set before ({@code 9.0.7}), or empty for its reference build. */
        public Builder runtimeBuild(String v) {
            runtimeBuild = v;
            return this;
        }

        public Builder gc(GcFlavor v) {
            gc = v;
            return this;
        }

        /** The built-in regions GC (the default) or the standalone segments GC. */
        public Builder gcMode(GcMode v) {
            gcMode = v;
            return this;
        }

        public Builder heaps(int v) {
            heaps = v;
            return this;
        }

        public Builder threads(int v) {
            threads = v;
            return this;
        }

        /** The mixed population: objects in gen2, gen1 and gen0, large arrays on the LOH, arrays on the POH. */
        public Builder objects(long gen2Objects, long gen1Objects, long gen0Objects, long lohObjects, long pohObjects) {
            gen2 = gen2Objects;
            gen1 = gen1Objects;
            gen0 = gen0Objects;
            loh = lohObjects;
            poh = pohObjects;
            return this;
        }

        public Builder gen1Objects(long v) {
            gen1 = v;
            return this;
        }

        public Builder frozenStrings(long v) {
            frozenStrings = v;
            return this;
        }

        public Builder garbage(double v) {
            garbage = v;
            return this;
        }

        public Builder handlesPerKind(int v) {
            handlesPerKind = v;
            return this;
        }

        public Builder features(Set<Feature> v) {
            features = v;
            return this;
        }

        public Builder type(TypeDef t) {
            types.add(t);
            return this;
        }

        public Builder program(List<Step> steps) {
            program.clear();
            program.addAll(steps);
            return this;
        }

        /** Allocates {@code count} objects of {@code type} in {@code where} on every heap in turn; none of them dies. */
        public Builder allocate(String type, long count, Step.Lengths lengths, Step.Where where) {
            return allocate(new Step.Allocate(type, count, lengths, where, -1, 0));
        }

        public Builder allocate(Step.Allocate step) {
            program.add(step);
            return this;
        }

        public Builder collect(int generation) {
            program.add(new Step.Collect(generation));
            return this;
        }

        public Builder seed(long v) {
            seed = v;
            return this;
        }

        public Scenario build() {
            return new Scenario(name, description, runtime, runtimeBuild, gc, gcMode, heaps, threads, gen2, gen1, gen0, loh, poh, frozenStrings, garbage,
                    handlesPerKind, features, types, program, seed);
        }
    }
}
