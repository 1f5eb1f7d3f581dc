package io.clrheap.layout;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The .NET runtime major versions clrheap knows; each has one profile file. */
public enum RuntimeVersion {
    NET8("net8.0", 8),
    NET9("net9.0", 9),
    NET10("net10.0", 10);

    private final String moniker;
    private final int major;

    RuntimeVersion(String moniker, int major) {
        this.moniker = moniker;
        this.major = major;
    }

    /** The target framework moniker, e.g. {@code net8.0}; also the profile's file name. */
    public String moniker() {
        return moniker;
    }

    public int major() {
        return major;
    }

    /** The short name used on the command line, e.g. {@code net8}. */
    public String shortName() {
        return "net" + major;
    }

    /** Accepts {@code net8}, {@code net8.0}, {@code 8} (any case). */
    public static RuntimeVersion parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        for (RuntimeVersion v : values()) {
            if (t.equals(v.moniker) || t.equals(v.shortName()) || t.equals(Integer.toString(v.major))) {
                return v;
            }
        }
        throw new IllegalArgumentException("unknown runtime '" + text + "'; known: "
                + Arrays.stream(values()).map(RuntimeVersion::shortName).collect(Collectors.joining(", ")));
    }
}
