package io.clrheap.conformance.corpus;

import io.clrheap.generator.bundle.BundleWriter;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One fixture of a golden corpus: a scenario on one runtime and GC flavour, stored in the corpus folder
 * {@code <runtime>-<gc>/} (e.g. {@code net8-server/}) as {@code NAME.clrheap.tar.xz} and {@code NAME.expected/}.
 * It is named by its {@link #id()}, {@code net8-server/default}.
 *
 * @param folder the folder in the corpus, {@code <runtime>-<gc>}
 * @param name   the scenario's name
 */
public record GoldenFixture(String folder, String name) implements Comparable<GoldenFixture> {

    /** A corpus folder's name: a runtime's short name and a GC flavour's id. */
    static final Pattern FOLDER = Pattern.compile("(net[0-9]+)-(server|workstation)");
    /** A scenario's name, as {@link io.clrheap.emulator.scenario.Scenario} allows it: nothing that could leave the folder. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    /** The suffix of the folder of expected outputs. */
    public static final String EXPECTED_SUFFIX = ".expected";

    public GoldenFixture {
        if (folder == null || !FOLDER.matcher(folder).matches()) {
            throw new IllegalArgumentException("a golden corpus folder is <runtime>-<gc>, e.g. net8-server, not '" + folder + "'");
        }
        if (name == null || !NAME.matcher(name).matches() || name.equals(".") || name.equals("..")) {
            throw new IllegalArgumentException("a golden fixture's name is a scenario name (letters, digits, '.', '_', '-'), not '" + name + "'");
        }
    }

    /** The fixture of scenario {@code name} on {@code runtime} and {@code gc}. */
    public static GoldenFixture of(String name, RuntimeVersion runtime, GcFlavor gc) {
        return new GoldenFixture(folderOf(runtime, gc), name);
    }

    /** The corpus folder of a runtime and GC flavour: {@code net8-server}, {@code net10-workstation}. */
    public static String folderOf(RuntimeVersion runtime, GcFlavor gc) {
        return runtime.shortName() + "-" + gc.id();
    }

    /** Whether {@code name} is a corpus folder's name ({@code <runtime>-<gc>}; the runtime may be one clrheap no longer knows). */
    public static boolean isFolderName(String name) {
        return FOLDER.matcher(name).matches();
    }

    /** {@code net8-server/default}: how the fixture is named in reports, globs and corpus.tsv. */
    public String id() {
        return folder + "/" + name;
    }

    /** The runtime its folder names, when clrheap knows it. */
    public Optional<RuntimeVersion> runtime() {
        Matcher m = FOLDER.matcher(folder);
        m.matches();
        for (RuntimeVersion v : RuntimeVersion.values()) {
            if (v.shortName().equals(m.group(1))) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }

    /** The GC flavour its folder names. */
    public GcFlavor gc() {
        Matcher m = FOLDER.matcher(folder);
        m.matches();
        return GcFlavor.parse(m.group(2));
    }

    /** The bundle's file name, {@code NAME.clrheap.tar.xz}. */
    public String bundleName() {
        return name + BundleWriter.SUFFIX;
    }

    /** The expected outputs' folder name, {@code NAME.expected}. */
    public String expectedName() {
        return name + EXPECTED_SUFFIX;
    }

    /** The bundle in the corpus {@code corpus}. */
    public Path bundle(Path corpus) {
        return corpus.resolve(folder).resolve(bundleName());
    }

    /** The folder of expected outputs in the corpus {@code corpus}. */
    public Path expected(Path corpus) {
        return corpus.resolve(folder).resolve(expectedName());
    }

    @Override
    public int compareTo(GoldenFixture other) {
        return id().compareTo(other.id());
    }

    @Override
    public String toString() {
        return id();
    }
}
