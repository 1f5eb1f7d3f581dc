package io.clrheap.layout;

import java.util.Locale;

/**
 * The operating system a runtime was built for. The same .NET build lays out some structures differently on Linux and
 * on Windows (g_dacTable has entries only Windows builds have, ThreadStore and Thread carry Windows-only fields), so
 * a layout is chosen by version, operating system and build. Linux profiles are named by the version alone
 * ({@code net8.0}); Windows ones add the system ({@code net8.0-windows}), and build files name the platform
 * ({@code builds/windows-x64-8.0.30.json}).
 */
public enum TargetOs {
    LINUX("linux", "Linux"),
    WINDOWS("windows", "Windows");

    private final String id;
    private final String displayName;

    TargetOs(String id, String displayName) {
        this.id = id;
        this.displayName = displayName;
    }

    /** As profiles and build files spell it: {@code linux}, {@code windows}. */
    public String id() {
        return id;
    }

    public String displayName() {
        return displayName;
    }

    /** The profile file (without {@code .json}) of {@code version} on this system: {@code net8.0}, {@code net8.0-windows}. */
    public String profileName(RuntimeVersion version) {
        return this == LINUX ? version.moniker() : version.moniker() + "-" + id;
    }

    /** Accepts {@code linux} and {@code windows} (any case). */
    public static TargetOs parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        for (TargetOs os : values()) {
            if (os.id.equals(t)) {
                return os;
            }
        }
        throw new IllegalArgumentException("unknown operating system '" + text + "'; known: linux, windows");
    }
}
