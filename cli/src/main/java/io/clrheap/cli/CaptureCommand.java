package io.clrheap.cli;

import io.clrheap.capture.Capture;
import io.clrheap.capture.ipc.DiagnosticsException;
import io.clrheap.capture.nettrace.NettraceFormatException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code clrheap capture}: records a golden/real folder from a running .NET process. */
@Command(
        name = "capture",
        mixinStandardHelpOptions = true,
        description = {"Record a real golden folder from a running .NET 8, 9 or 10 process on Linux x64.",
            "It holds a full dump through the diagnostics IPC, then the runtime's own heap snapshot (EventPipe "
                    + "GCBulkNode/GCBulkEdge/GCBulkType/roots/GC events), written as core.xz (trimmed, environment blanked), "
                    + "live-objects.txt, roots.txt, refs.txt, gc-events.txt and info.txt. The runtime collects its heap for the "
                    + "snapshot; the objects its GC moved are listed where the dump has them. Objects a busy process allocated "
                    + "or moved between the dump and the snapshot are left out of live-objects.txt and listed in "
                    + "changed-objects.txt.",
            "Everything is written beside DIR first and moved into place at the end."},
        footer = {
            "",
            "Examples:",
            "  ./clrheap capture --pid 12345 --out golden/real/net9-mine",
            "  ./clrheap golden check golden/real/net9-mine",
            "",
            "Exit codes: 0 written; 1 the process did not answer in time, refused, or sent a malformed trace; 2 bad "
                    + "usage."})
final class CaptureCommand implements Callable<Integer> {

    @Option(names = "--pid", required = true, paramLabel = "PID", description = "The .NET process.")
    long pid;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "The folder to write (must not exist, or be empty).")
    Path out;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "The longest wait for the runtime: each answer, the dump (default: 120).")
    long timeout = 120;

    @Option(names = "--idle", paramLabel = "SECONDS", description = "The snapshot is complete when the trace has been idle this long (default: 3).")
    long idle = 3;

    @Option(names = "--max-trace", paramLabel = "SECONDS", description = "The longest the snapshot session runs (default: 120).")
    long maxTrace = 120;

    @Option(names = "--xz-preset", paramLabel = "N", description = "xz preset of core.xz, 0-9 (default: 6).")
    int preset = 6;

    @Option(names = "--attempts", paramLabel = "N", description = "Dumps and snapshots taken at most when the snapshot does not describe its "
            + "dump (a busy process); the best is kept when 90% of its objects agree (default: " + Capture.ATTEMPTS + ").")
    int attempts = Capture.ATTEMPTS;

    @Option(names = "--tmpdir", paramLabel = "DIR", description = "Where the process's diagnostics socket is (default: the process's TMPDIR, then /tmp).")
    Path tmpdir;

    @Option(names = {"-q", "--quiet"}, description = "No progress on stderr.")
    boolean quiet;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (pid <= 0 || timeout <= 0 || idle <= 0 || maxTrace <= 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--pid, --timeout, --idle and --max-trace are positive");
        }
        if (attempts < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--attempts is at least 1, not " + attempts);
        }
        if (preset < 0 || preset > 9) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--xz-preset is 0..9, not " + preset);
        }
        List<Path> temps = new ArrayList<>();
        if (tmpdir != null) {
            temps.add(tmpdir);
        } else {
            processTmpdir(pid).ifPresent(temps::add);
            temps.add(Path.of("/tmp"));
        }
        if (ProcessHandle.of(pid).isEmpty()) {
            // as walk --pid: a pid that is no process is bad usage
            throw new CommandLine.ParameterException(spec.commandLine(), "--pid " + pid + ": no such process");
        }
        Capture.Options o = new Capture.Options(pid, out, Duration.ofSeconds(timeout), Duration.ofSeconds(idle), Duration.ofSeconds(maxTrace), preset,
                List.copyOf(temps), attempts);
        try {
            Capture.Result r = Capture.run(o, line -> {
                if (!quiet) {
                    err.println("clrheap capture: " + line);
                    err.flush();
                }
            });
            stdout.printf(Locale.ROOT, "captured process %d into %s: %,d live objects%s; full dump %,d bytes -> core.xz %,d bytes; %.1f s (%sdump %.1f s, snapshot %.1f s, trim and compress %.1f s)%n",
                    pid, r.folder(), r.liveObjects(), r.changedObjects() == 0 ? ""
                            : String.format(Locale.ROOT, " (%,d more changed between the dump and the snapshot: %s)", r.changedObjects(), Capture.CHANGED_OBJECTS),
                    r.fullDumpBytes(), r.coreXzBytes(), r.total().toMillis() / 1e3,
                    r.attempts() == 1 ? "" : r.attempts() + " attempts; ", r.dumpTime().toMillis() / 1e3, r.traceTime().toMillis() / 1e3, r.trimTime().toMillis() / 1e3);
            return 0;
        } catch (DiagnosticsException | NettraceFormatException e) {
            err.println("clrheap capture: " + e.getMessage());
            return 1;
        } catch (IOException e) {
            err.println("clrheap capture: " + e.getMessage());
            return 1;
        }
    }

    /** TMPDIR from the process's environment, where the runtime puts its socket (readable by its owner and root). */
    private static java.util.Optional<Path> processTmpdir(long pid) {
        try {
            byte[] env = java.nio.file.Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ"));
            for (String kv : new String(env, java.nio.charset.StandardCharsets.UTF_8).split("\0")) {
                if (kv.startsWith("TMPDIR=") && kv.length() > 7) {
                    return java.util.Optional.of(Path.of(kv.substring(7)));
                }
            }
        } catch (IOException | RuntimeException e) {
            // not readable: /tmp
        }
        return java.util.Optional.empty();
    }
}
