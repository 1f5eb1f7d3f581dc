package io.clrheap.conformance.corpus;

import io.clrheap.emulator.module.Platform;
import io.clrheap.generator.bundle.BundleWriter;
import io.clrheap.generator.fixture.FixtureFormat;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One fixture of a golden corpus: a scenario on one runtime, platform and GC flavour, stored in the corpus folder
 * {@code <runtime>-<gc>/} (a Linux process, e.g. {@code net8-server/}) as the bundle {@code NAME.clrheap.tar.xz}, or
 * {@code <runtime>-windows-<gc>/} (the Windows variant of the same process, e.g. {@code net8-windows-server/}) as the
 * xz-compressed minidump {@code NAME.dmp.xz}; either beside {@code NAME.expected/}. It is named by its {@link #id()},
 * {@code net8-server/default}.
 *
 * @param folder the folder in the corpus, {@code <runtime>-<gc>} or {@code <runtime>-windows-<gc>}
 * @param name   the scenario's name
 */
public record GoldenFixture(String folder, String name) implements Comparable<GoldenFixture> {

    /** A corpus folder's name: a runtime's short name, {@code -windows} for a Windows process, and a GC flavour's id. */
    static final Pattern FOLDER = Pattern.compile("(net[0-9]+)(-windows|-segments)?-(server|workstation)");
    /** A scenario's name, as {@link io.clrheap.emulator.scenario.Scenario} allows it: nothing that could leave the folder. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    /** The suffix of the folder of expected outputs. */
    public static final String EXPECTED_SUFFIX = ".expected";
    /** The suffix of a Windows fixture's file: the minidump as generate writes it ({@code .dmp}), xz-compressed. */
    public static final String MINIDUMP_XZ_SUFFIX = FixtureFormat.MINIDUMP.suffix() + ".xz";

    public GoldenFixture {
        if (folder == null || !FOLDER.matcher(folder).matches()) {
            throw new IllegalArgumentException("a golden corpus folder is <runtime>-<gc>, <runtime>-windows-<gc> or <runtime>-segments-<gc>, e.g. net8-server, not '"
                    + folder + "'");
        }
        if (name == null || !NAME.matcher(name).matches() || name.equals(".") || name.equals("..")) {
            throw new IllegalArgumentException("a golden fixture's name is a scenario name (letters, digits, '.', '_', '-'), not '" + name + "'");
        }
    }

    /** The Linux fixture of scenario {@code name} on {@code runtime} and {@code gc}. */
    public static GoldenFixture of(String name, RuntimeVersion runtime, GcFlavor gc) {
        return of(name, runtime, Platform.LINUX, gc);
    }

    /** The fixture of scenario {@code name} on {@code runtime}, {@code platform} and {@code gc}. */
    public static GoldenFixture of(String name, RuntimeVersion runtime, Platform platform, GcFlavor gc) {
        return new GoldenFixture(folderOf(runtime, platform, gc), name);
    }

    /** The corpus folder of a runtime, platform and GC flavour: {@code net8-server}, {@code net10-windows-workstation}. */
    public static String folderOf(RuntimeVersion runtime, Platform platform, GcFlavor gc) {
        return runtime.shortName() + (platform == Platform.WINDOWS ? "-windows" : "") + "-" + gc.id();
    }

    /** Whether {@code name} is a corpus folder's name (the runtime may be one clrheap no longer knows). */
    public static boolean isFolderName(String name) {
        return FOLDER.matcher(name).matches();
    }

    /**
     * The fixture whose file is {@code path} in a corpus ({@code net8-windows-server/default.dmp.xz}, a corpus.tsv
     * path); empty when it is no fixture's file (a folder that is no corpus folder, the other platform's suffix).
     */
    public static Optional<GoldenFixture> ofPath(String path) {
        int slash = path.indexOf('/');
        if (slash < 0 || !isFolderName(path.substring(0, slash))) {
            return Optional.empty();
        }
        String folder = path.substring(0, slash);
        String file = path.substring(slash + 1);
        String suffix = fileSuffix(platformOf(folder));
        if (!file.endsWith(suffix)) {
            return Optional.empty();
        }
        try {
            return Optional.of(new GoldenFixture(folder, file.substring(0, file.length() - suffix.length())));
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // not a scenario name
        }
    }

    /** {@code net8-server/default}: how the fixture is named in reports, globs and corpus.tsv. */
    public String id() {
        return folder + "/" + name;
    }

    /** The runtime its folder names, when clrheap knows it. */
    public Optional<RuntimeVersion> runtime() {
        String shortName = folderPart(1);
        for (RuntimeVersion v : RuntimeVersion.values()) {
            if (v.shortName().equals(shortName)) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }

    /** The platform its folder names: Windows for {@code <runtime>-windows-<gc>}, else Linux. */
    public Platform platform() {
        return platformOf(folder);
    }

    /** Whether its folder is a process on the standalone segments GC ({@code <runtime>-segments-<gc>}, a Linux process). */
    public boolean segments() {
        return "-segments".equals(folderPart(2));
    }

    /** The Linux fixture of scenario {@code name} on {@code runtime} and {@code gc} under the standalone segments GC. */
    public static GoldenFixture ofSegments(String name, RuntimeVersion runtime, GcFlavor gc) {
        return new GoldenFixture(runtime.shortName() + "-segments-" + gc.id(), name);
    }

    /** The GC flavour its folder names. */
    public GcFlavor gc() {
        return GcFlavor.parse(folderPart(3));
    }

    /** What {@code clrheap generate --format} writes for it: a bundle of a Linux process, a minidump of a Windows one. */
    public FixtureFormat format() {
        return platform() == Platform.WINDOWS ? FixtureFormat.MINIDUMP : FixtureFormat.BUNDLE;
    }

    /**
     * The Linux fixture of the same scenario, runtime and GC flavour (itself for a Linux fixture). The Windows variant of
     * a process holds its heaps at the Linux one's addresses, so the two have one answer key: a Windows fixture's
     * {@code objects.tsv} and object graph are read from its twin's bundle.
     */
    public GoldenFixture linuxTwin() {
        return platform() == Platform.LINUX ? this : new GoldenFixture(folderPart(1) + "-" + folderPart(3), name);
    }

    /** The file's name: {@code NAME.clrheap.tar.xz} (Linux) or {@code NAME.dmp.xz} (Windows). */
    public String fileName() {
        return name + fileSuffix(platform());
    }

    /** The expected outputs' folder name, {@code NAME.expected}. */
    public String expectedName() {
        return name + EXPECTED_SUFFIX;
    }

    /** Its file (the bundle or the compressed minidump) in the corpus {@code corpus}. */
    public Path file(Path corpus) {
        return corpus.resolve(folder).resolve(fileName());
    }

    /** The folder of expected outputs in the corpus {@code corpus}. */
    public Path expected(Path corpus) {
        return corpus.resolve(folder).resolve(expectedName());
    }

    /** Its file's path in the corpus, as corpus.tsv names it: {@code net8-windows-server/default.dmp.xz}. */
    public String path() {
        return folder + "/" + fileName();
    }

    private String folderPart(int group) {
        Matcher m = FOLDER.matcher(folder);
        m.matches();
        return m.group(group);
    }

    private static Platform platformOf(String folder) {
        Matcher m = FOLDER.matcher(folder);
        m.matches();
        return "-windows".equals(m.group(2)) ? Platform.WINDOWS : Platform.LINUX;
    }

    private static String fileSuffix(Platform platform) {
        return platform == Platform.WINDOWS ? MINIDUMP_XZ_SUFFIX : BundleWriter.SUFFIX;
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
