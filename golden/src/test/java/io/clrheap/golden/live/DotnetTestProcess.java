package io.clrheap.golden.live;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real .NET process running our test program (HeapProbe.cs): it allocated known objects, forced full GCs (the first
 * objects are in gen2, the later ones in gen0), printed where each object is and {@code READY}, and now waits on stdin
 * without allocating, so its heap stays as reported until {@link #close()}.
 *
 * <pre>{@code
 * try (DotnetTestProcess process = DotnetTestProcess.start(RealRuntime.NET9, true)) {
 *     long pid = process.pid();
 *     for (ReportedObject o : process.objects()) { ... }
 * }
 * }</pre>
 *
 * <p>{@link #start} skips the test (JUnit assumption) when the runtime's npm package cannot be fetched or mcs is
 * missing, unless {@code CLRHEAP_REQUIRE_RUNTIMES=1}; see {@link RealRuntimes}.
 */
public final class DotnetTestProcess implements AutoCloseable {

    /** How long {@link #start} waits for {@code READY}. */
    public static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    /** How long {@link #close} waits for the process to exit after telling it to, before killing it. */
    public static final Duration EXIT_TIMEOUT = Duration.ofSeconds(10);

    private final RuntimeBuild runtime;
    private final boolean serverGc;
    private final Process process;
    private final Path stderr;
    private final ProbeOutput output;
    private Integer exitCode;

    private DotnetTestProcess(RuntimeBuild runtime, boolean serverGc, Process process, Path stderr, List<String> output) {
        this.runtime = runtime;
        this.serverGc = serverGc;
        this.process = process;
        this.stderr = stderr;
        this.output = ProbeOutput.parse(output);
    }

    /**
     * Starts {@code runtime} with our program (server GC: {@code DOTNET_gcServer=1}, {@code DOTNET_GCHeapCount=2};
     * workstation: {@code DOTNET_gcServer=0}) and waits until it printed {@code READY}, at most {@link #READY_TIMEOUT}.
     */
    public static DotnetTestProcess start(RealRuntime runtime, boolean serverGc) {
        return start(runtime.build(), serverGc);
    }

    /** As {@link #start(RealRuntime, boolean)}, on any servicing build. */
    public static DotnetTestProcess start(RuntimeBuild runtime, boolean serverGc) {
        return start(runtime, serverGc, Map.of());
    }

    /** As {@link #start(RuntimeBuild, boolean)}, with {@code environment} set too (e.g. a standalone GC's {@code DOTNET_GCName}). */
    public static DotnetTestProcess start(RuntimeBuild runtime, boolean serverGc, Map<String, String> environment) {
        RealRuntimes.Launch launch = RealRuntimes.launch(runtime, serverGc).with(environment);
        Path stderr;
        Process process;
        try {
            stderr = Files.createTempFile("clrheap-" + runtime.id() + "-", ".stderr");
            process = launch.processBuilder().redirectError(stderr.toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + launch.command(), e);
        }
        ProbeOutput.Awaited awaited = ProbeOutput.await(process, READY_TIMEOUT, "dotnet-" + process.pid());
        List<String> lines = awaited.lines();
        Thread reader = awaited.reader();
        if (!awaited.ready()) {
            process.destroyForcibly();
            try {
                process.waitFor(5, TimeUnit.SECONDS);
                reader.join(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            String why = awaited.ended() ? "ended (exit " + (process.isAlive() ? "?" : process.exitValue()) + ")"
                    : "printed no READY within " + READY_TIMEOUT.toSeconds() + " s (killed)";
            throw new IllegalStateException(runtime + (serverGc ? " server" : " workstation") + " GC test process " + why
                    + "\ncommand: " + String.join(" ", launch.command()) + "\nenvironment: " + launch.environment()
                    + "\nstdout:\n" + ProbeOutput.tail(String.join("\n", lines)) + "\nstderr:\n" + ProbeOutput.tail(read(stderr)));
        }
        DotnetTestProcess started;
        try {
            started = new DotnetTestProcess(runtime, serverGc, process, stderr, lines);
        } catch (RuntimeException e) {
            process.destroyForcibly();
            throw e;
        }
        if (started.objects().isEmpty()) {
            started.close();
            throw new IllegalStateException(runtime + " test process reported no objects:\n" + String.join("\n", lines));
        }
        return started;
    }

    public long pid() {
        return process.pid();
    }

    public RuntimeBuild runtime() {
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

    /** {@code GC.GetGeneration} of a reported object: 0, 1, 2 (also for LOH and POH objects), or 2147483647 for a frozen one. */
    public int generation(ReportedObject o) {
        return output.generation(o);
    }

    /**
     * The number of GC heaps: what the program read from {@code GC.GetConfigurationVariables()} (8 and 9); 10.0's trimmed
     * CoreLib lacks it, so there it is what was asked for: 2 for server GC ({@code DOTNET_GCHeapCount=2}), 1 otherwise.
     */
    public int heapCount() {
        return output.heapCount() > 0 ? output.heapCount() : serverGc ? 2 : 1;
    }

    /** The runtime's version as the program saw it: System.Private.CoreLib's assembly version, e.g. {@code 9.0.0.0}. */
    public String runtimeVersion() {
        return output.runtimeVersion();
    }

    /** {@code Environment.Version} as the program saw it: the runtime's build, e.g. {@code 9.0.1}, or {@code unknown}. */
    public String environmentVersion() {
        return output.environmentVersion();
    }

    /** {@code server}, {@code workstation}, or {@code unknown} (10.0: the trimmed CoreLib cannot tell): what the program saw. */
    public String reportedGc() {
        return output.gc();
    }

    /** Every line the program printed up to {@code READY} ({@code PID}, {@code RUNTIME}, {@code VERSION}, {@code GC}, {@code GCCONFIG}, {@code HEAPS}, {@code OBJ}, {@code FIELD}). */
    public List<String> output() {
        return output.lines();
    }

    /** What the process wrote on stderr so far. */
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
     * Makes the program busy: a thread of its own allocates without end (millions of objects a second, most of them
     * garbage, about a thousand a second replacing survivors), so that its heap changes all the time and GCs run. The objects it reported stay
     * reachable, but may move.
     */
    public void startAllocating() {
        try {
            OutputStream in = process.getOutputStream();
            in.write("busy\n".getBytes(StandardCharsets.US_ASCII));
            in.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot tell " + this + " to allocate", e);
        }
    }

    /** Tells the program to exit (a line on stdin), waits {@link #EXIT_TIMEOUT}, then kills it. */
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
            removeLeftovers();
        }
    }

    /** The stderr file, and the diagnostics socket a killed runtime leaves in /tmp. */
    private void removeLeftovers() {
        try {
            Files.deleteIfExists(stderr);
        } catch (IOException e) {
            // a temp file
        }
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        for (Path dir : new Path[]{tmp, Path.of("/tmp")}) {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path p : files.filter(p -> p.getFileName().toString().startsWith("dotnet-diagnostic-" + pid() + "-")).toList()) {
                    Files.deleteIfExists(p);
                }
            } catch (IOException e) {
                // nothing to clean
            }
        }
    }

    @Override
    public String toString() {
        return runtime + (serverGc ? " server GC" : " workstation GC") + " pid " + pid();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}
