package io.clrheap.generator.bundle;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import java.util.Objects;

/**
 * What a fixture bundle says about itself in its manifest: the scenario it was built from, the seed, the runtime and
 * GC flavour, and the clrheap version that wrote it.
 *
 * @param scenario       the scenario's name, e.g. {@code default}
 * @param seed           the seed of every random choice the emulator made
 * @param runtime        the runtime version, written as its short name ({@code net8})
 * @param gc             the GC flavour, written as its id ({@code server})
 * @param clrheapVersion the version of clrheap that wrote the bundle, e.g. {@code 0.1.0}
 */
public record BundleInfo(String scenario, long seed, RuntimeVersion runtime, GcFlavor gc, String clrheapVersion) {

    public BundleInfo {
        Objects.requireNonNull(runtime, "runtime");
        Objects.requireNonNull(gc, "gc");
        requireText("scenario", scenario);
        requireText("clrheapVersion", clrheapVersion);
    }

    /** The facts of {@code process}'s own scenario, written by clrheap {@code clrheapVersion}. */
    public static BundleInfo of(EmulatedRuntime process, String clrheapVersion) {
        var s = process.scenario();
        return new BundleInfo(s.name(), s.seed(), s.runtime(), s.gc(), clrheapVersion);
    }

    private static void requireText(String what, String value) {
        if (value == null || value.isBlank() || value.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException(what + " must be non-blank text without control characters, not '" + value + "'");
        }
    }
}
