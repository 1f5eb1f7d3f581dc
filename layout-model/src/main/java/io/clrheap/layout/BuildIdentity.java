package io.clrheap.layout;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which runtime build a binary or a dump is, as the build says of itself: the runtime version ({@code 9.0.7}), the
 * four-part file version ({@code 9.0.725.31616}) and the dotnet/runtime commit. Every CoreCLR binary carries them in its
 * sccsid string {@code @(#)Version 9.0.725.31616 @Commit: 3c298d9f…} (a {@code static char[]} of the runtime, so in
 * writable data, which every dump holds); the third part of the file version is the patch number times 100 plus a
 * two-digit year (9.0.124 is 9.0.1, 9.0.725 is 9.0.7, 8.0.3026 is 8.0.30, 10.0.25 is 10.0.0). docs/reference/discovery.md
 * section 3.
 *
 * @param version     {@code major.minor.patch}
 * @param fileVersion the four-part file version, or empty when only the version is known (DotNetRuntimeInfo gives three
 *                    parts and a revision; a runtime folder's name gives only the version)
 * @param commit      the dotnet/runtime commit (40 hex digits), or empty
 */
public record BuildIdentity(String version, String fileVersion, String commit) {

    private static final Pattern SCCSID = Pattern.compile("@\\(#\\)Version ([0-9]{1,5}\\.[0-9]{1,5}\\.[0-9]{1,7}\\.[0-9]{1,7})(?: @Commit: ([0-9a-f]{7,40}))?");
    private static final Pattern VERSION = Pattern.compile("[0-9]{1,5}\\.[0-9]{1,5}\\.[0-9]{1,5}");

    public BuildIdentity {
        if (!VERSION.matcher(version).matches()) {
            throw new IllegalArgumentException("not a runtime version (major.minor.patch): '" + version + "'");
        }
        fileVersion = fileVersion == null ? "" : fileVersion;
        commit = commit == null ? "" : commit;
    }

    /** The identity of a four-part file version: {@code 9.0.725.31616} is 9.0.7. */
    public static BuildIdentity ofFileVersion(String fileVersion, String commit) {
        String[] parts = fileVersion.split("\\.");
        if (parts.length != 4) {
            throw new IllegalArgumentException("not a four-part file version: '" + fileVersion + "'");
        }
        return new BuildIdentity(parts[0] + "." + parts[1] + "." + Integer.parseInt(parts[2]) / 100, fileVersion, commit);
    }

    /** The first sccsid string in {@code text} (bytes read as ISO-8859-1), with the offset where it starts. */
    public static Optional<Found> findSccsid(CharSequence text) {
        Matcher m = SCCSID.matcher(text);
        if (!m.find()) {
            return Optional.empty();
        }
        return Optional.of(new Found(ofFileVersion(m.group(1), m.group(2)), m.start()));
    }

    /** An identity found in a text, and where. */
    public record Found(BuildIdentity identity, int offset) {
    }

    /** The major version, e.g. 9. */
    public int major() {
        return Integer.parseInt(version.substring(0, version.indexOf('.')));
    }

    /** The patch number, e.g. 7 for 9.0.7. */
    public int patch() {
        return patchOf(version);
    }

    /** The patch number of a {@code major.minor.patch} version, e.g. 7 for 9.0.7. */
    public static int patchOf(String version) {
        return Integer.parseInt(version.substring(version.lastIndexOf('.') + 1));
    }

    /** The commit's first 12 digits (what the runtime's own {@code --info} prints), or empty. */
    public String shortCommit() {
        return commit.length() <= 12 ? commit : commit.substring(0, 12);
    }

    /** e.g. {@code 9.0.7 (9.0.725.31616, commit 3c298d9f0093)}. */
    public String describe() {
        return describe(version, fileVersion, commit);
    }

    /**
     * A build as reports print it: the version, then the file version and the commit's first 12 digits where known
     * ({@code 9.0.7 (9.0.725.31616, commit 3c298d9f0093)}; {@code 9.0.7} alone).
     */
    public static String describe(String version, String fileVersion, String commit) {
        if (fileVersion.isEmpty() && commit.isEmpty()) {
            return version;
        }
        StringBuilder s = new StringBuilder(version).append(" (");
        if (!fileVersion.isEmpty()) {
            s.append(fileVersion);
        }
        if (!commit.isEmpty()) {
            s.append(fileVersion.isEmpty() ? "" : ", ").append("commit ").append(commit, 0, Math.min(12, commit.length()));
        }
        return s.append(')').toString();
    }

    /** Orders versions numerically: 9.0.11 after 9.0.7. */
    public static int compareVersions(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            int c = Integer.compare(Integer.parseInt(x[i]), Integer.parseInt(y[i]));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(x.length, y.length);
    }
}
