package io.clrheap.cli;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Where walk, map and explain find a heap: a dump file, or {@code --emulate SCENARIO} (with {@code --runtime} and
 * {@code --gc}) for an emulated process built in memory. A picocli mixin, so the three commands declare and check it once.
 */
final class HeapSource {

    @Parameters(index = "0", arity = "0..1", paramLabel = "DUMP", description = "An ELF core (or DUMP.xz), a minidump, or a fixture bundle of a .NET process.")
    Path dump;

    @Option(names = "--emulate", paramLabel = "SCENARIO", description = "An emulated process built from this scenario (a built-in name or a JSON file) instead of a dump.")
    String emulate;

    @Option(names = "--runtime", paramLabel = "net8|net9|net10", converter = RuntimeOptions.RuntimeConverter.class,
            description = "With --emulate: the runtime version (default: the scenario's).")
    RuntimeVersion runtime;

    @Option(names = "--gc", paramLabel = "server|workstation", converter = RuntimeOptions.GcConverter.class,
            description = "With --emulate: the GC flavour (default: the scenario's).")
    GcFlavor gc;

    boolean emulated() {
        return emulate != null;
    }

    /**
     * Exactly one of DUMP and {@code --emulate}; {@code --runtime}, {@code --gc} and, for commands that have it,
     * {@code --in-process} only with {@code --emulate}.
     */
    void checkChoice(CommandLine cli, boolean hasInProcess, boolean inProcess) {
        if ((dump == null) == (emulate == null)) {
            throw new CommandLine.ParameterException(cli, "give either a DUMP or --emulate SCENARIO");
        }
        if (emulate == null && (runtime != null || gc != null || inProcess)) {
            throw new CommandLine.ParameterException(cli, hasInProcess ? "--runtime, --gc and --in-process go with --emulate"
                    : "--runtime and --gc go with --emulate");
        }
    }

    /** The DUMP is a file that exists. */
    void checkDump(CommandLine cli) {
        if (Files.isDirectory(dump)) {
            throw new CommandLine.ParameterException(cli, dump + " is a directory, not a dump");
        }
        if (!Files.exists(dump)) {
            throw new CommandLine.ParameterException(cli, "no such file: " + dump);
        }
    }

    /** Builds and opens the {@code --emulate} process ({@link EmulatedTarget#open}). */
    EmulatedTarget openEmulated(boolean inProcess, Consumer<String> note) throws EmulatedTarget.Unavailable, IOException {
        return EmulatedTarget.open(emulate, runtime, gc, inProcess, note);
    }
}
