package io.clrheap.cli;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.profile.RuntimeChoice;
import io.clrheap.walker.source.CoreCache;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Where walk, map and explain find a heap: a dump file, {@code --emulate SCENARIO} (with {@code --runtime} and
 * {@code --gc}) for an emulated process built in memory, or {@code --pid PID} for a running process (walk only, so
 * far). A picocli mixin, so the three commands declare and check it once.
 */
final class HeapSource {

    @Parameters(index = "0", arity = "0..1", paramLabel = "DUMP", description = "An ELF core (or DUMP.xz), a minidump, or a fixture bundle of a .NET process.")
    Path dump;

    @Option(names = "--emulate", paramLabel = "SCENARIO", description = "An emulated process built from this scenario (a built-in name or a JSON file) instead of a dump.")
    String emulate;

    @Option(names = "--pid", paramLabel = "PID", description = "A running .NET process instead of a dump (walk only; needs ptrace rights over it).")
    Integer pid;

    @Option(names = "--no-cache", description = "Decompress an .xz DUMP to a temporary file removed when the command ends, "
            + "instead of into the cache folder ($CLRHEAP_CACHE, else $XDG_CACHE_HOME/clrheap, else ~/.cache/clrheap).")
    boolean noCache;

    @Option(names = "--runtime", paramLabel = "net8|net9|net10|BUILD", converter = RuntimeOptions.RuntimeConverter.class,
            description = "With --emulate: the runtime, net8, net9 or net10 (each its reference build: 8.0.30, 9.0.1, 10.0.9) or an exact "
                    + "build, e.g. 9.0.7 (default: the scenario's).")
    RuntimeChoice runtime;

    @Option(names = "--gc", paramLabel = "server|workstation", converter = RuntimeOptions.GcConverter.class,
            description = "With --emulate: the GC flavour (default: the scenario's).")
    GcFlavor gc;

    boolean emulated() {
        return emulate != null;
    }

    boolean live() {
        return pid != null;
    }

    /** As {@link #checkChoice(CommandLine, boolean, boolean, boolean)} for a command that cannot read a running process. */
    void checkChoice(CommandLine cli, boolean hasInProcess, boolean inProcess) {
        checkChoice(cli, hasInProcess, inProcess, false);
    }

    /**
     * Exactly one of DUMP, {@code --emulate} and (where {@code takesPid}) {@code --pid}; {@code --runtime}, {@code --gc}
     * and, for commands that have it, {@code --in-process} only with {@code --emulate}.
     */
    void checkChoice(CommandLine cli, boolean hasInProcess, boolean inProcess, boolean takesPid) {
        if (pid != null && !takesPid) {
            throw new CommandLine.ParameterException(cli, "--pid goes with walk only: take a dump of the process and give it as DUMP");
        }
        int given = (dump == null ? 0 : 1) + (emulate == null ? 0 : 1) + (pid == null ? 0 : 1);
        if (given != 1) {
            String choices = takesPid ? "a DUMP, --emulate SCENARIO or --pid PID" : "a DUMP or --emulate SCENARIO";
            throw new CommandLine.ParameterException(cli, given == 0 ? "give either " + choices : "give only one of " + choices);
        }
        if (noCache && dump == null) {
            throw new CommandLine.ParameterException(cli, "--no-cache goes with a DUMP: only a dump file is decompressed");
        }
        if (pid != null && pid <= 0) {
            throw new CommandLine.ParameterException(cli, "--pid must be a process id (a positive number), not " + pid);
        }
        if (emulate == null && (runtime != null || gc != null || inProcess)) {
            throw new CommandLine.ParameterException(cli, hasInProcess ? "--runtime, --gc and --in-process go with --emulate"
                    : "--runtime and --gc go with --emulate");
        }
    }

    /**
     * The DUMP exists (else bad usage, exit 2). What it is — a directory, a FIFO, a device — is the front door's to say
     * ({@link io.clrheap.walker.Dumps#open} refuses anything but a regular file without opening it): exit 3, the dump
     * cannot be opened.
     */
    void checkDump(CommandLine cli) {
        if (!Files.exists(dump)) {
            throw new CommandLine.ParameterException(cli, "no such file: " + dump);
        }
    }

    /** Where an {@code .xz} DUMP is decompressed: the cache folder the environment names, or with {@code --no-cache} a temporary file. */
    CoreCache coreCache() {
        return noCache ? CoreCache.temporary() : CoreCache.fromEnvironment();
    }

    /** Builds and opens the {@code --emulate} process ({@link EmulatedTarget#open}). */
    EmulatedTarget openEmulated(boolean inProcess, Consumer<String> note) throws EmulatedTarget.Unavailable, IOException {
        return EmulatedTarget.open(emulate, runtime, gc, inProcess, note);
    }
}
