package io.clrheap.emulator.module;

/**
 * A module's four-part file version, e.g. 8.0.3026.36720 for the runtime of .NET 8.0.30: what a PE image's
 * version resource and a minidump's VS_FIXEDFILEINFO carry, and what DotNetRuntimeInfo.RuntimeVersion holds.
 */
public record FileVersion(int major, int minor, int build, int revision) {

    public FileVersion {
        for (int part : new int[] {major, minor, build, revision}) {
            if (part < 0 || part > 0xffff) {
                throw new IllegalArgumentException("a file version part is 0..65535, not " + part);
            }
        }
    }

    /**
     * Parses a four-part file version, {@code 9.0.725.31616}.
     *
     * @throws IllegalArgumentException when it is not four parts of 0..65535
     */
    public static FileVersion parse(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("not a four-part file version: '" + text + "'");
        }
        int[] v = new int[4];
        for (int i = 0; i < 4; i++) {
            try {
                v[i] = Integer.parseInt(parts[i]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a four-part file version: '" + text + "'");
            }
        }
        return new FileVersion(v[0], v[1], v[2], v[3]);
    }

    /** The most significant half, as VS_FIXEDFILEINFO's dwFileVersionMS: major in the high 16 bits, minor low. */
    public int mostSignificant() {
        return (major << 16) | minor;
    }

    /** The least significant half, as VS_FIXEDFILEINFO's dwFileVersionLS: build in the high 16 bits, revision low. */
    public int leastSignificant() {
        return (build << 16) | revision;
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + build + "." + revision;
    }
}
