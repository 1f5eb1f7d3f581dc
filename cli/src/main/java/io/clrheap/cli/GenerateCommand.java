package io.clrheap.cli;

import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.generator.ClrheapVersion;
import io.clrheap.generator.fixture.FixtureFormat;
import io.clrheap.generator.fixture.FixtureName;
import io.clrheap.generator.fixture.FixtureProgress;
import io.clrheap.generator.fixture.FixtureWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code clrheap generate}: scenarios' emulated processes as fixture files, with their answer keys — every chosen
 * scenario on every chosen runtime and GC flavour, one after the other in this JVM ({@link FixtureBatch}).
 */
@Command(
        name = "generate",
        mixinStandardHelpOptions = true,
        description = {"Write scenarios' emulated .NET processes as dump files real tools open, with their answer keys.",
            "Emulate each chosen scenario's .NET process on each chosen runtime and GC flavour (one JVM builds them "
                    + "all, one after the other) and write it as fixture files real tools open, with the answer key written "
                    + "from what the emulator placed, named SCENARIO-RUNTIME-GC: DIR/default-net9-server.core (ELF core), "
                    + "default-9.0.7-server.core for an exact build (--runtime 9.0.7), .dmp (minidump, Windows x64), "
                    + ".clrheap.tar.xz (fixture bundle) and .answer/.",
            "Each written file is read back with the walker and compared with its answer key.",
            "Progress on stderr ([3/12] every-edge net9 server: ...), what was written on stdout, then one line: how "
                    + "many fixtures agree with their answer key, bytes written, time. A fixture that fails does not stop the "
                    + "others."},
        footer = {
            "",
            "Examples:",
            "  ./clrheap generate --scenario default --out fixtures/   (default-net8-server.*)",
            "  ./clrheap generate --scenario every-edge --runtime net10 --gc workstation --out fixtures/",
            "  ./clrheap generate --scenario all --runtime all --gc all --format bundle --out fixtures/",
            "  ./clrheap generate --scenario default,every-edge --runtime net8,net9 --gc all --out fixtures/",
            "  ./clrheap generate --scenario default --runtime 9.0.7,10.0.11 --out fixtures/   (default-9.0.7-server.* ...)",
            "  ./clrheap generate --scenario my-scenario.json --heaps 8 --seed 7 --out fixtures/",
            "  ./clrheap generate --scenario default --runtime net9 --gc-mode segments --out fixtures/   (default-net9-server-segments.*)",
            "  ./clrheap generate --scenario default --runtime net9 --out fixtures/ --check-dac ~/dotnet/shared/Microsoft.NETCore.App/9.0.1",
            "",
            "Exit codes, the highest of the fixtures':",
            "0: every fixture written and read back as its answer key says.",
            "1: a failure: a file could not be written, the walker disagrees with the answer key, or --check-dac found "
                    + "the DAC disagreeing with it, crashing, or none for the scenario's build.",
            "2: bad usage, also two selected fixtures with one name (nothing is built).",
            "3: unreadable or invalid input (a scenario file that is not a scenario: nothing is built), or a fixture this "
                    + "machine cannot hold: before each build, what it takes is estimated from the scenario (process memory, "
                    + "Java heap, disk) and checked against what is available; a shortfall is refused with the numbers "
                    + "(--force builds anyway)."
        })
final class GenerateCommand implements Callable<Integer> {

    static final int EXIT_INVALID_INPUT = 3;

    @Option(names = "--scenario", required = true, split = ",", paramLabel = "all|NAME|FILE",
            description = "Built-in scenarios (./clrheap scenarios lists them), scenario JSON files (docs/scenarios.md), or all: every "
                    + "built-in scenario but large and scale-64. Repeatable, or comma-separated.")
    List<String> scenarios;

    @Option(names = "--runtime", split = ",", paramLabel = "all|net8|net9|net10|BUILD",
            description = "Runtimes, comma-separated: net8, net9, net10 (each its reference build: 8.0.30, 9.0.1, 10.0.9; files named "
                    + "default-net9-server), an exact build the profiles know (9.0.7: default-9.0.7-server; ./clrheap --version lists them), "
                    + "or all: the three versions (default: each scenario's own).")
    List<String> runtimes;

    @Option(names = "--gc", split = ",", paramLabel = "all|server|workstation",
            description = "GC flavours, comma-separated, or all (default: each scenario's own).")
    List<String> gcs;

    @Option(names = "--gc-mode", paramLabel = "regions|segments", converter = GcModeConverter.class,
            description = "The GC every fixture runs: regions (the runtime's own GC) or segments (the standalone libclrgc.so a process chooses "
                    + "with DOTNET_GCName, emulated for .NET 9 only; files named default-net9-server-segments). Default: each scenario's own.")
    io.clrheap.emulator.scenario.GcMode gcMode;

    @Option(names = "--heaps", paramLabel = "N", description = "Server GC heaps, 1..64, for the server GC fixtures (default: the scenario's; "
            + "workstation GC has one heap, so a selection of workstation fixtures only takes no other N).")
    Integer heaps;

    @Option(names = "--seed", paramLabel = "N", description = "The seed of every random choice (default: the scenario's).")
    Long seed;

    @Option(names = "--format", paramLabel = "FORMAT", split = ",", converter = FormatConverter.class,
            description = "What to write, one or more of: elf, minidump, bundle (default: all; no minidump of a build clrheap has no "
                    + "Windows layout of: it has 8.0.30 and 10.0.9).")
    List<FixtureFormat> formats;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "The folder to write into (created if missing).")
    Path out;

    @Option(names = {"-q", "--quiet"}, description = "No progress on stderr (failures are still reported).")
    boolean quiet;

    @Option(names = "--check-dac", arity = "0..1", paramLabel = "DAC", fallbackValue = "",
            description = "After writing each fixture, walk its ELF core and bundle with Microsoft's DAC (libmscordaccore.so of the "
                    + "scenario's runtime build, or a folder holding it or the DACs of several builds, the fixture's chosen by its "
                    + "version string; without a value found as walk --engine dac finds it), "
                    + "both ways (SOS's ISOSDacInterface path and the DAC's own heap walker), and fail unless both equal the answer key.")
    String checkDac;

    @Option(names = "--force", description = "Build even when the estimate says the machine has too little memory, Java heap or disk.")
    boolean force;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** {@code --format}: a {@link FixtureFormat} by its id; a wrong one is a usage error listing the known ones. */
    static final class FormatConverter implements CommandLine.ITypeConverter<FixtureFormat> {
        @Override
        public FixtureFormat convert(String value) {
            try {
                return FixtureFormat.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<Scenario> chosen;
        try {
            chosen = ScenarioOption.resolveEach(scenarios);
        } catch (IllegalArgumentException e) {
            err.println("clrheap generate: " + e.getMessage()); // a scenario file itself is wrong: invalid input
            return EXIT_INVALID_INPUT;
        }
        FixtureSelection selection;
        try {
            selection = FixtureSelection.of(chosen, runtimes, gcs, heaps, seed, gcMode);
        } catch (IllegalArgumentException e) {
            // the options do not fit (4 heaps under workstation GC, net7, one fixture named twice): bad usage
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (Files.exists(out) && !Files.isDirectory(out)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--out " + out + " is a file, not a folder");
        }
        Set<FixtureFormat> written = formats == null || formats.isEmpty() ? EnumSet.allOf(FixtureFormat.class) : EnumSet.copyOf(formats);
        if (checkDac != null && !written.contains(FixtureFormat.ELF) && !written.contains(FixtureFormat.BUNDLE)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--check-dac needs an ELF core or a bundle (--format elf or bundle)");
        }
        // runtimes as builds: net9 and 9.0.1 are one, 9.0.1 and 9.0.7 two (a DAC reads one build)
        long runtimesInBatch = selection.fixtures().stream().map(s -> s.runtimeChoice().buildVersion(io.clrheap.layout.profile.ProfileLoader.builtIn()))
                .distinct().count();
        if (checkDac != null && !checkDac.isEmpty() && runtimesInBatch > 1 && !Files.isDirectory(Path.of(checkDac))) {
            // a DAC reads one runtime build: given to every runtime of the batch it would fail the others as disagreements
            // (a folder may hold the DACs of several builds: each fixture's is chosen by its version string)
            throw new CommandLine.ParameterException(spec.commandLine(), "--check-dac " + checkDac + " is one runtime's DAC, and the batch has "
                    + runtimesInBatch + " runtimes: give one --runtime with it, a folder holding the DAC of each runtime's build, "
                    + "or --check-dac alone to find each runtime's DAC");
        }
        return new FixtureBatch(written, out, force, checkDac, quiet, formats != null && !formats.isEmpty()).run(selection.fixtures(), stdout, err);
    }

    /**
     * The estimate of generating {@code s} as {@code formats} into {@code folder}, checked against the machine
     * ({@link BuildCheck}): the refusal message when it does not fit; the estimate as a note on {@code note} when large.
     */
    static java.util.Optional<String> check(String command, Scenario s, Set<FixtureFormat> formats, Path folder, boolean force, PrintWriter note) {
        return check(command, s, formats, folder, force, note, 0);
    }

    /** As {@link #check(String, Scenario, Set, Path, boolean, PrintWriter)}, with {@code heldBytes} of memory earlier builds of this process gave back. */
    static java.util.Optional<String> check(String command, Scenario s, Set<FixtureFormat> formats, Path folder, boolean force, PrintWriter note,
            long heldBytes) {
        io.clrheap.emulator.BuildEstimate e = io.clrheap.emulator.BuildEstimate.of(s);
        // the Windows variant is built while the Linux one is kept (one answer key for both): two processes at once
        int builds = formats.contains(FixtureFormat.MINIDUMP) ? 2 : 1;
        long disk = e.answerKeyBytes();
        List<String> parts = new java.util.ArrayList<>(List.of("answer key " + io.clrheap.emulator.BuildEstimate.bytes(e.answerKeyBytes())));
        for (FixtureFormat f : formats) {
            long bytes = switch (f) {
                case ELF -> e.elfBytes();
                case MINIDUMP -> e.minidumpBytes();
                case BUNDLE -> e.bundleBytes();
            };
            disk += bytes;
            parts.add(f.id() + " " + io.clrheap.emulator.BuildEstimate.bytes(bytes));
        }
        return BuildCheck.check(command, s, e, BuildCheck.needs(e, builds, disk, String.join(", ", parts), folder, heldBytes), force, note);
    }

    /**
     * Builds {@code s} and writes the chosen files and the answer key into {@code folder} under its {@link FixtureName}
     * (through {@link FixtureWriter}, with notes and progress bars on {@code progress}, none when it is null); returns
     * what it wrote.
     */
    static List<Path> generate(Scenario s, Set<FixtureFormat> formats, Path folder, PrintWriter progress) throws IOException {
        return FixtureWriter.write(s, FixtureName.of(s).toString(), formats, folder, ClrheapVersion.current(),
                progress == null ? FixtureProgress.NONE : new CliProgress(progress));
    }
}
