package io.clrheap.dac;

import io.clrheap.walker.runtime.Target;
import java.util.Locale;
import java.util.Objects;

/**
 * The runtime build a dump was taken of, as far as it is known: the exact runtime version ({@code 9.0.7}) and, when
 * the dump names them (the runtime module's {@code @(#)Version 9.0.725.31616 @Commit: 3c298d9f...} string), its file
 * version and dotnet/runtime commit. A DAC reads only dumps of its own build: {@link #matches(DacBuild)} says whether
 * one does.
 *
 * @param version     the runtime version, e.g. {@code 9.0.7}
 * @param fileVersion the runtime module's four-part file version, e.g. {@code 9.0.725.31616}, or empty when unknown
 * @param commit      the dotnet/runtime commit (full or abbreviated), or empty when unknown
 */
public record DumpBuild(String version, String fileVersion, String commit) {

    /** A commit shorter than this names no build (an abbreviation must still be unambiguous). */
    private static final int MIN_COMMIT = 7;

    public DumpBuild {
        Objects.requireNonNull(version, "version");
        fileVersion = fileVersion == null ? "" : fileVersion;
        commit = commit == null ? "" : commit.toLowerCase(Locale.ROOT);
    }

    /** A build known by its version alone. */
    public static DumpBuild ofVersion(String version) {
        return new DumpBuild(version, "", "");
    }

    /** The build a runtime binary's version string names (a runtime module and the DAC of its build say the same). */
    public static DumpBuild of(DacBuild sccsid) {
        return new DumpBuild(sccsid.runtimeVersion(), sccsid.fileVersion(), sccsid.commit());
    }

    /**
     * The build of {@code target}'s runtime: the identity the dump gives (version, file version and commit of its
     * {@code @(#)Version} string, or DotNetRuntimeInfo's file version), else its version as identified
     * ({@link Target#version()}); the one place every DAC use reads it.
     */
    public static DumpBuild of(Target target) {
        return target.identity().map(id -> new DumpBuild(id.version(), id.fileVersion(), id.commit()))
                .orElseGet(() -> ofVersion(target.version()));
    }

    /**
     * Whether {@code dac} is a DAC of this build: the same runtime version, and the same file version and commit
     * where both sides know them.
     */
    public boolean matches(DacBuild dac) {
        // a dump that does not say its build is one of the known builds of its layout ("9.0.1, 9.0.5, 9.0.7 or 9.0.11"):
        // the DAC of any of them reads it
        if (!java.util.List.of(version.split(", | or ")).contains(dac.runtimeVersion())) {
            return false;
        }
        if (!fileVersion.isEmpty() && !dac.fileVersion().equals(fileVersion)) {
            return false;
        }
        return sameCommit(commit, dac.commit());
    }

    /** Two commits name the same one unless both are known and neither is a prefix of the other. */
    static boolean sameCommit(String a, String b) {
        String x = a.toLowerCase(Locale.ROOT);
        String y = b.toLowerCase(Locale.ROOT);
        if (x.length() < MIN_COMMIT || y.length() < MIN_COMMIT) {
            return true;
        }
        return x.startsWith(y) || y.startsWith(x);
    }

    /** e.g. {@code 9.0.7 (9.0.725.31616, commit 3c298d9f0093)}, or {@code 9.0.7} when only the version is known. */
    @Override
    public String toString() {
        return io.clrheap.layout.BuildIdentity.describe(version, fileVersion, commit);
    }
}
