package io.clrheap.emulator.scenario;

import java.util.Locale;

/**
 * How the emulated process's GC lays out its heap: the runtime's built-in regions GC, or the standalone segments GC
 * ({@code libclrgc.so}) a process chooses with {@code DOTNET_GCName} (docs/reference/discovery.md section 14).
 */
public enum GcMode {
    /** Regions (the runtime's own GC in .NET 8, 9 and 10): every generation a list of regions. */
    REGIONS,
    /**
     * Segments ({@code libclrgc.so}): gen2, gen1 and gen0 one after the other in the ephemeral segment, told apart by
     * each generation's allocation_start; LOH and POH segments of their own.
     */
    SEGMENTS;

    /** {@code regions} or {@code segments}, as scenario JSON and {@code --gc-mode} spell it. */
    public String spelling() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static GcMode parse(String text) {
        for (GcMode m : values()) {
            if (m.spelling().equals(text)) {
                return m;
            }
        }
        throw new IllegalArgumentException("gc mode is 'regions' or 'segments', not '" + text + "'");
    }
}
