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
