package io.clrheap.layout.profile;

import io.clrheap.layout.BuildIdentity;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeBuild;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.TargetOs;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A runtime as {@code --runtime} names it: a major version ({@code net9}), which stands for its reference build (the
 * first of its profile's {@code builds}: 8.0.30, 9.0.1, 10.0.9), or one exact build the profiles know ({@code 9.0.7}: a
 * build of the major's profile or of a build file, {@code profiles/builds/}).
 *
 * @param version the major version
 * @param build   the exact build asked for, e.g. {@code 9.0.7}; empty for the major's reference build
 */
public record RuntimeChoice(RuntimeVersion version, String build) {

    private static final Pattern BUILD = Pattern.compile("[0-9]{1,5}\\.[0-9]{1,5}\\.[0-9]{1,5}");

    public RuntimeChoice {
        java.util.Objects.requireNonNull(version, "version");
        build = build == null ? "" : build;
    }

    /** The major version's reference build. */
    public static RuntimeChoice of(RuntimeVersion version) {
        return new RuntimeChoice(version, "");
    }

    /**
     * Parses {@code net9}, {@code net9.0}, {@code 9} (a major version, any case) or {@code 9.0.7} (an exact build, which
     * {@code profiles} must know).
     *
     * @throws IllegalArgumentException naming the known majors and builds when {@code text} is neither
     */
    public static RuntimeChoice parse(String text, ProfileLoader profiles) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (BUILD.matcher(t).matches()) {
            int major = Integer.parseInt(t.substring(0, t.indexOf('.')));
            for (RuntimeVersion v : RuntimeVersion.values()) {
                if (v.major() == major && knownBuilds(v, profiles).contains(t)) {
                    return new RuntimeChoice(v, t);
                }
            }
            throw new IllegalArgumentException("unknown runtime build '" + text + "'; " + known(profiles));
        }
        try {
            return of(RuntimeVersion.parse(t));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown runtime '" + text + "'; " + known(profiles));
        }
    }

    /** What {@code --runtime} takes, for messages: {@code known: net8, net9, net10, or a build: 8.0.27, 8.0.30, 9.0.1, …}. */
    public static String known(ProfileLoader profiles) {
        List<String> builds = new ArrayList<>();
        for (RuntimeVersion v : RuntimeVersion.values()) {
            builds.addAll(knownBuilds(v, profiles).stream().sorted(BuildIdentity::compareVersions).toList());
        }
        return "known: " + String.join(", ", Arrays.stream(RuntimeVersion.values()).map(RuntimeVersion::shortName).toList())
                + " (each its reference build), or a build: " + String.join(", ", builds);
    }

    /** The builds of {@code version} the profiles know, reference build first (the same under either GC). */
    public static List<String> knownBuilds(RuntimeVersion version, ProfileLoader profiles) {
        return profiles.load(version, GcFlavor.WORKSTATION).builds().stream().map(RuntimeBuild::version).toList();
    }

    /** Whether this is a major version (its reference build) rather than a build asked for by number. */
    public boolean isMajor() {
        return build.isEmpty();
    }

    /** The build emulated: the one asked for, else the major's reference build. */
    public String buildVersion(ProfileLoader profiles) {
        return build.isEmpty() ? profiles.load(version, GcFlavor.WORKSTATION).primaryBuild().version() : build;
    }

    /** The layout of that build under {@code gc}; its {@link RuntimeLayout#primaryBuild()} is the build. */
    public RuntimeLayout layout(ProfileLoader profiles, GcFlavor gc) {
        return profiles.load(version, gc, buildVersion(profiles));
    }

    /**
     * The layout of that build as built for {@code os}: on Windows, the Windows layout of the same build (the major's
     * reference build on Windows when a major was asked for).
     *
     * @throws IllegalArgumentException when clrheap has no {@code os} layout of that build, naming those it has
     */
    public RuntimeLayout layout(ProfileLoader profiles, TargetOs os, GcFlavor gc) {
        if (os == TargetOs.LINUX) {
            return layout(profiles, gc);
        }
        if (!profiles.has(version, os)) {
            throw new IllegalArgumentException(String.format("clrheap has no %s layouts of %s: they are taken from real %s processes of each "
                    + "build, and none was available; %s builds it has: %s", os.displayName(), version.shortName(), os.displayName(),
                    os.displayName(), String.join(", ", knownBuilds(os, profiles))));
        }
        RuntimeLayout reference = profiles.load(version, os, GcFlavor.WORKSTATION);
        String wanted = build.isEmpty() ? reference.primaryBuild().version() : build;
        if (reference.builds().stream().noneMatch(b -> b.version().equals(wanted))) {
            throw new IllegalArgumentException(String.format("clrheap has no %s layout of %s (taken from real %s processes of each build); "
                    + "%s builds it has: %s", os.displayName(), wanted, os.displayName(), os.displayName(), String.join(", ", knownBuilds(os, profiles))));
        }
        return profiles.load(version, os, gc, wanted);
    }

    /** Every build clrheap has the {@code os} layout of, oldest first. */
    public static List<String> knownBuilds(TargetOs os, ProfileLoader profiles) {
        List<String> builds = new ArrayList<>();
        for (RuntimeVersion v : RuntimeVersion.values()) {
            if (profiles.has(v, os)) {
                builds.addAll(profiles.load(v, os, GcFlavor.WORKSTATION).builds().stream().map(RuntimeBuild::version)
                        .sorted(BuildIdentity::compareVersions).toList());
            }
        }
        return builds;
    }

    /** The name files and messages use: {@code net9} for a major, {@code 9.0.7} for a build. */
    public String name() {
        return build.isEmpty() ? version.shortName() : build;
    }

    @Override
    public String toString() {
        return name();
    }
}
