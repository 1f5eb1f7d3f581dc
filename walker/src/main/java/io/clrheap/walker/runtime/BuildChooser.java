package io.clrheap.walker.runtime;

import io.clrheap.layout.BuildIdentity;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeBuild;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.TargetOs;
import io.clrheap.layout.profile.ProfileLoader;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Chooses the layout a dump is walked with, from the build it says it is ({@link IdentityReader}) and the length of its
 * {@code g_dacTable} (docs/reference/discovery.md section 3):
 * <ul>
 *   <li>a build clrheap has the layout of: that layout, its table length checked;</li>
 *   <li>another build of a known major version: the layout of the nearest known build of that major whose table has the
 *       same length (the previous one when two are as near), walked only after every fact the walk relies on validated
 *       on the dump ({@link TargetValidation});</li>
 *   <li>no identity in the dump: the known builds whose table has that length, if they share one layout.</li>
 * </ul>
 * Anything else is refused, saying what was found and what clrheap knows.
 */
final class BuildChooser {

    /**
     * The choice.
     *
     * @param version       the major version whose profile is used
     * @param build         the known build whose layout is used
     * @param identity      the dump's build as it says, or empty
     * @param versionText   the version reports print: the identity's, or the known builds it may be
     * @param versionSource how the version was read
     * @param nearest       whether {@code build} is another build than the dump's (then every check must pass)
     */
    record Choice(RuntimeVersion version, RuntimeBuild build, Optional<BuildIdentity> identity, String versionText,
                  String versionSource, boolean nearest, List<RuntimeBuild> alternatives) {

        Choice(RuntimeVersion version, RuntimeBuild build, Optional<BuildIdentity> identity, String versionText, String versionSource, boolean nearest) {
            this(version, build, identity, versionText, versionSource, nearest, List.of());
        }

        /** How the layout was chosen, before validation. */
        String layoutSource() {
            if (nearest) {
                return "the layout of " + build.version() + " (nearest known build of " + version.shortName() + " with a g_dacTable of "
                        + build.dacTable().length() + " entries)";
            }
            return "the profile of " + build.version() + (build.buildFile().isEmpty() ? "" : " (" + build.buildFile() + ")");
        }
    }

    private final ProfileLoader profiles;
    private final TargetOs os;

    BuildChooser(ProfileLoader profiles) {
        this(profiles, TargetOs.LINUX);
    }

    /** A chooser among the layouts of runtimes built for {@code os}. */
    BuildChooser(ProfileLoader profiles, TargetOs os) {
        this.profiles = profiles;
        this.os = os;
    }

    /** The layout of {@code choice} for the GC flavour the dump uses. */
    RuntimeLayout layout(Choice choice, GcFlavor gc) {
        return profiles.load(choice.version(), os, gc, choice.build().version());
    }

    private RuntimeLayout layout(RuntimeVersion version) {
        return profiles.load(version, os, GcFlavor.WORKSTATION);
    }

    /**
     * @param found       the identity the dump holds, if any
     * @param tableLength g_dacTable's length when the module says it (ELF st_size), else empty (PE exports have no size)
     * @param contracts   the contract descriptor's contracts, for a PE module without identity
     * @param moduleName  the runtime module's file name, for messages
     */
    Choice choose(Optional<IdentityReader.Found> found, OptionalInt tableLength, Optional<Map<String, Long>> contracts, String moduleName)
            throws TargetException {
        if (found.isPresent()) {
            return byIdentity(found.get(), tableLength, moduleName);
        }
        return withoutIdentity(tableLength, contracts, moduleName);
    }

    private Choice byIdentity(IdentityReader.Found found, OptionalInt tableLength, String moduleName) throws TargetException {
        BuildIdentity id = found.identity();
        RuntimeVersion version = majorOf(id).orElseThrow(() -> new TargetException(TargetException.Kind.UNSUPPORTED_BUILD, String.format(
                "unsupported build: runtime %s in %s (read from %s); clrheap knows .NET 8, 9 and 10 (%s)",
                id.describe(), moduleName, found.source(), known())));
        if (!profiles.has(version, os)) {
            String known = known();
            throw new TargetException(TargetException.Kind.UNSUPPORTED_BUILD, String.format(
                    "unsupported build: runtime %s in %s (read from %s) is a %s x64 runtime, and clrheap has no %s layouts of %s: they are "
                            + "taken from real processes of each build, and none was available (%s builds clrheap knows: %s)",
                    id.describe(), moduleName, found.source(), os.displayName(), os.displayName(), version.shortName(), os.displayName(),
                    known.isEmpty() ? "none" : known));
        }
        List<RuntimeBuild> builds = layout(version).builds();
        Optional<RuntimeBuild> exact = builds.stream().filter(b -> b.version().equals(id.version())).findFirst();
        if (exact.isPresent()) {
            RuntimeBuild b = exact.get();
            if (tableLength.isPresent() && tableLength.getAsInt() != b.dacTable().length()) {
                throw new TargetException(TargetException.Kind.UNSUPPORTED_BUILD, String.format(
                        "runtime %s in %s (read from %s) has a g_dacTable of %d entries, but clrheap's profile of %s records %d: "
                                + "the dump's module is not the build it says, or the profile is wrong",
                        id.describe(), moduleName, found.source(), tableLength.getAsInt(), b.version(), b.dacTable().length()));
            }
            return new Choice(version, b, Optional.of(id), id.version(), found.source(), false);
        }
        Optional<RuntimeBuild> nearest = layout(version).nearestBuild(id.version(), tableLength);
        if (nearest.isEmpty()) {
            throw new TargetException(TargetException.Kind.UNSUPPORTED_BUILD, String.format(
                    "unsupported build: runtime %s in %s (read from %s) has a g_dacTable of %d entries, and no known build of %s "
                            + "has that length (%s); `clrheap derive-profile` records the layout of a new build from a process or dump of it",
                    id.describe(), moduleName, found.source(), tableLength.getAsInt(), version.shortName(), lengths(builds)));
        }
        return new Choice(version, nearest.get(), Optional.of(id), id.version(), found.source(), true);
    }

    private Choice withoutIdentity(OptionalInt tableLength, Optional<Map<String, Long>> contracts, String moduleName) throws TargetException {
        if (tableLength.isEmpty() && contracts.isEmpty()) {
            throw new TargetException(TargetException.Kind.UNSUPPORTED_BUILD, String.format(
                    "cannot identify the build of %s: the dump holds no version string, it exports neither DotNetRuntimeInfo nor a "
                            + "readable DotNetRuntimeContractDescriptor, and a PE export has no size to take g_dacTable's length from; "
                            + "clrheap has layouts of %s", moduleName, known()));
        }
        List<Choice> matches = new ArrayList<>();
        for (RuntimeVersion v : RuntimeVersion.values()) {
            if (!profiles.has(v, os)) {
                continue;
            }
            RuntimeLayout layout = layout(v);
            for (RuntimeBuild b : layout.builds()) {
                boolean match = tableLength.isPresent() ? b.dacTable().length() == tableLength.getAsInt()
                        : !layout.contracts().isEmpty() && contracts.get().equals(widen(layout.contracts()));
                if (match) {
                    matches.add(new Choice(v, b, Optional.empty(), b.version(),
                            tableLength.isPresent() ? "g_dacTable length" : "contract descriptor's contracts", false));
                }
            }
        }
        String what = tableLength.isPresent() ? "g_dacTable has " + tableLength.getAsInt() + " entries"
                : "contract descriptor declares " + contracts.get();
        if (matches.isEmpty()) {
            throw new TargetException(TargetException.Kind.UNSUPPORTED_BUILD, String.format(
                    "unsupported build: %s holds no version string, and its %s, as no known build's does; clrheap has layouts of %s",
                    moduleName, what, known()));
        }
        Choice first = matches.getFirst();
        for (Choice m : matches) {
            if (m.version() != first.version() || !sameTable(first, m)) {
                throw new TargetException(TargetException.Kind.UNSUPPORTED_BUILD, String.format(
                        "cannot tell the build of %s: the dump holds no version string, its %s, and the builds that match (%s) differ in layout",
                        moduleName, what, String.join(", ", matches.stream().map(Choice::versionText).toList())));
            }
        }
        if (matches.size() == 1) {
            return first;
        }
        List<String> versions = matches.stream().map(Choice::versionText).sorted(BuildIdentity::compareVersions).toList();
        String text = String.join(", ", versions.subList(0, versions.size() - 1)) + " or " + versions.getLast();
        return new Choice(first.version(), first.build(), Optional.empty(), text,
                first.versionSource() + " (builds of the same layout; the dump holds no version string)", false,
                matches.subList(1, matches.size()).stream().map(Choice::build).toList());
    }

    /** Whether two builds' g_dacTables agree: the same entries at the same indexes. */
    private static boolean sameTable(Choice a, Choice b) {
        if (!a.build().dacTable().entries().keySet().equals(b.build().dacTable().entries().keySet())) {
            return false;
        }
        for (var e : a.build().dacTable().entries().values()) {
            if (b.build().dacTable().indexOf(e.name()).orElse(-1) != e.index()) {
                return false;
            }
        }
        return true;
    }

    /**
     * For a dump without identity, once its GC flavour is read: every build it may be must lay out that GC's structures
     * alike, or which one it is decides where fields are, and the dump is refused.
     */
    void requireOneLayout(Choice choice, GcFlavor gc, String moduleName) throws TargetException {
        Map<String, Map<String, Long>> first = offsets(layout(choice, gc));
        for (RuntimeBuild other : choice.alternatives()) {
            if (!offsets(profiles.load(choice.version(), os, gc, other.version())).equals(first)) {
                throw new TargetException(TargetException.Kind.UNSUPPORTED_BUILD, String.format(
                        "cannot tell the build of %s: the dump holds no version string, and the builds its g_dacTable fits (%s) lay out "
                                + "%s GC's structures differently (%s and %s first differ in %s)", moduleName, choice.versionText(), gc.id(),
                        choice.build().version(), other.version(), firstDifference(first, offsets(profiles.load(choice.version(), os, gc, other.version())))));
            }
        }
    }

    private static String firstDifference(Map<String, Map<String, Long>> a, Map<String, Map<String, Long>> b) {
        for (var e : a.entrySet()) {
            Map<String, Long> other = b.getOrDefault(e.getKey(), Map.of());
            for (var f : e.getValue().entrySet()) {
                if (!f.getValue().equals(other.get(f.getKey()))) {
                    return String.format("%s.%s (0x%x, %s)", e.getKey(), f.getKey(), f.getValue(),
                            other.containsKey(f.getKey()) ? String.format("0x%x", other.get(f.getKey())) : "absent");
                }
            }
        }
        return "a structure one of them lacks";
    }

    private static Map<String, Map<String, Long>> offsets(RuntimeLayout layout) {
        Map<String, Map<String, Long>> all = new java.util.TreeMap<>();
        layout.types().forEach((name, t) -> {
            Map<String, Long> fields = new java.util.TreeMap<>();
            t.fields().forEach(f -> fields.put(f.name(), f.offset()));
            all.put(name, fields);
        });
        return all;
    }

    private static Optional<RuntimeVersion> majorOf(BuildIdentity id) {
        for (RuntimeVersion v : RuntimeVersion.values()) {
            if (v.major() == id.major() && id.version().startsWith(v.major() + ".0.")) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }

    private String known() {
        List<String> all = new ArrayList<>();
        for (RuntimeVersion v : RuntimeVersion.values()) {
            if (!profiles.has(v, os)) {
                continue;
            }
            layout(v).builds().stream().map(RuntimeBuild::version)
                    .sorted(BuildIdentity::compareVersions).forEach(all::add);
        }
        return String.join(", ", all);
    }

    private static String lengths(List<RuntimeBuild> builds) {
        return String.join(", ", builds.stream().sorted(Comparator.comparing(RuntimeBuild::version, BuildIdentity::compareVersions))
                .map(b -> b.version() + ": " + b.dacTable().length()).toList());
    }

    private static Map<String, Long> widen(Map<String, Integer> contracts) {
        Map<String, Long> wide = new java.util.TreeMap<>();
        contracts.forEach((k, v) -> wide.put(k, v.longValue()));
        return wide;
    }
}
