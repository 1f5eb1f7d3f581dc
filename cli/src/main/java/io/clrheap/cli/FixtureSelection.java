package io.clrheap.cli;

import io.clrheap.emulator.Scenarios;
import io.clrheap.emulator.scenario.GcMode;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.generator.fixture.FixtureName;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.layout.profile.RuntimeChoice;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The fixtures one {@code clrheap generate} writes: every chosen scenario on every chosen runtime and GC flavour (the
 * scenario's own when none is chosen), scenario by scenario, then runtime, then GC, each under its {@link FixtureName}.
 *
 * @param fixtures the scenarios to build, each already on its runtime and GC, with {@code --heaps} and {@code --seed} applied
 */
record FixtureSelection(List<Scenario> fixtures) {

    FixtureSelection {
        fixtures = List.copyOf(fixtures);
    }

    /**
     * The cross product of {@code scenarios} × {@code runtimes} × {@code gcs}. {@code heaps} (when given) goes to the
     * server GC fixtures only, as workstation GC has one heap; a selection without a server GC fixture takes it as one
     * scenario did before (so workstation with more than one heap is refused). {@code seed} (when given) goes to all.
     *
     * @param runtimes {@code all} (the three versions, each its reference build), or runtimes as {@code --runtime} takes
     *                 them (a version, or an exact build: {@code 9.0.7}); empty for each scenario's own
     * @param gcs      {@code all}, or GC flavours as {@code --gc} takes them; empty for each scenario's own
     * @throws IllegalArgumentException (bad usage) for an unknown runtime or GC, heaps the scenario cannot have, or two
     *                                  fixtures that would be written under one name
     */
    static FixtureSelection of(List<Scenario> scenarios, List<String> runtimes, List<String> gcs, Integer heaps, Long seed) {
        return of(scenarios, runtimes, gcs, heaps, seed, null);
    }

    /**
     * As {@link #of(List, List, List, Integer, Long)}, every fixture on {@code gcMode} when given
     * (null: each scenario's own); the scenarios that do not run on that GC are left out, and none running is bad usage.
     */
    static FixtureSelection of(List<Scenario> scenarios, List<String> runtimes, List<String> gcs, Integer heaps, Long seed,
                               GcMode gcMode) {
        ProfileLoader profiles = ProfileLoader.builtIn();
        List<RuntimeChoice> rs = choices(runtimes, Arrays.stream(RuntimeVersion.values()).map(RuntimeChoice::of).toArray(RuntimeChoice[]::new),
                v -> RuntimeChoice.parse(v, profiles));
        List<GcFlavor> gs = choices(gcs, GcFlavor.values(), GcFlavor::parse);
        List<Scenario> fixtures = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (Scenario s : scenarios) {
            GcMode mode = gcMode != null ? gcMode : s.gcMode();
            boolean segments = mode == GcMode.SEGMENTS;
            // --gc-mode builds each scenario that runs on that GC: a segments GC scenario has no regions variant, and a
            // regions scenario whose edge cases place contexts in regions no segments one
            if (mode != s.gcMode() && (s.gcMode() == GcMode.SEGMENTS || !Scenarios.runsOnSegments(s))) {
                skipped.add(s.name());
                continue;
            }
            List<RuntimeChoice> runtimesOfIt = rs.isEmpty() ? List.of(s.runtimeChoice())
                    // the segments GC is .NET 9's only (docs/reference/discovery.md section 14): its scenarios skip the other versions
                    : segments ? rs.stream().filter(r -> r.version() == RuntimeVersion.NET9).toList() : rs;
            if (segments && (runtimesOfIt.isEmpty() || runtimesOfIt.stream().anyMatch(r -> r.version() != RuntimeVersion.NET9))) {
                throw new IllegalArgumentException("scenario " + s.name() + " on the segments GC: it is emulated for .NET 9 only, and the scenario's "
                        + (rs.isEmpty() ? "own runtime is " + s.runtimeName() : "runtimes chosen are no .NET 9") + "; choose --runtime net9 or a 9.0 build");
            }
            for (RuntimeChoice r : runtimesOfIt) {
                for (GcFlavor g : gs.isEmpty() ? List.of(s.gc()) : gs) {
                    Scenario on = s.on(r, g);
                    fixtures.add(on.gcMode() == mode ? on : on.toBuilder().gcMode(mode).build());
                }
            }
        }
        if (fixtures.isEmpty() && !skipped.isEmpty()) {
            throw new IllegalArgumentException("no selected scenario runs on the " + gcMode.spelling() + " GC (" + String.join(", ", skipped)
                    + (gcMode == GcMode.SEGMENTS ? ": their edge cases place contexts in regions)" : ": they are the segments GC's own)"));
        }
        boolean anyServer = fixtures.stream().anyMatch(s -> s.gc() == GcFlavor.SERVER);
        List<Scenario> chosen = new ArrayList<>();
        Map<String, Scenario> byName = new HashMap<>();
        for (Scenario s : fixtures) {
            boolean takesHeaps = heaps != null && (s.gc() == GcFlavor.SERVER || !anyServer);
            if (takesHeaps || seed != null) {
                s = s.toBuilder().heaps(takesHeaps ? heaps : s.heaps()).seed(seed == null ? s.seed() : seed).build();
            }
            String name = FixtureName.of(s).toString();
            if (byName.putIfAbsent(name, s) != null) {
                throw new IllegalArgumentException("two selected fixtures would both be written as " + name
                        + " (a scenario, runtime or GC chosen twice, or a scenario file named as a built-in scenario)");
            }
            chosen.add(s);
        }
        return new FixtureSelection(chosen);
    }

    /** {@code values} parsed, {@code all} standing for every one of {@code every}; empty when none are given. */
    private static <T> List<T> choices(List<String> values, T[] every, Function<String, T> parse) {
        List<T> chosen = new ArrayList<>();
        for (String v : values == null ? List.<String>of() : values) {
            if (v.trim().equalsIgnoreCase("all")) {
                chosen.addAll(Arrays.asList(every));
            } else {
                chosen.add(parse.apply(v));
            }
        }
        return chosen;
    }
}
