package io.clrheap.cli;

import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.generator.ClrheapVersion;
import io.clrheap.generator.fixture.FixtureFormat;
import io.clrheap.generator.fixture.FixtureProgress;
import io.clrheap.generator.fixture.FixtureWriter;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code clrheap generate}: a scenario's emulated process as fixture files, with its answer key. */
@Command(
        name = "generate",
        mixinStandardHelpOptions = true,
        description = {"Write a scenario's emulated .NET process as dump files real tools open, with the answer key.",
            "Emulate a scenario's .NET process and write it as fixture files real tools open, with the answer key",
            "written from what the emulator placed: DIR/NAME.core (ELF core, Linux x64), DIR/NAME.dmp (minidump, Windows x64),",
            "DIR/NAME.clrheap.tar.xz (fixture bundle) and DIR/NAME.answer/."},
        footer = {
            "",
            "Examples:",
            "  ./clrheap generate --scenario default --out fixtures/",
            "  ./clrheap generate --scenario every-edge --runtime net10 --gc workstation --out fixtures/",
            "  ./clrheap generate --scenario my-scenario.json --heaps 8 --seed 7 --out fixtures/",
            "  ./clrheap generate --scenario default --runtime net9 --out fixtures/ --check-dac ~/dotnet/shared/Microsoft.NETCore.App/9.0.1",
            "",
            "Exit codes: 0 success; 1 a failure (the message says what and where), or --check-dac found the DAC",
            "disagreeing with the answer key, crashing, or none for the scenario's build; 2 bad usage;",
            "3 unreadable or invalid input (a scenario file that is not a scenario), or a scenario this machine cannot hold:",
            "before building, what the build takes is estimated from the scenario (process memory, Java heap, disk) and",
            "checked against what is available; a shortfall is refused with the numbers (--force builds anyway)."
        })
final class GenerateCommand implements Callable<Integer> {

    static final int EXIT_INVALID_INPUT = 3;

    @Option(names = "--scenario", required = true, paramLabel = "NAME|FILE",
            description = "A built-in scenario (./clrheap scenarios lists them) or a scenario JSON file (docs/scenarios.md).")
    String scenario;

    @Option(names = "--runtime", paramLabel = "net8|net9|net10", converter = RuntimeOptions.RuntimeConverter.class,
            description = "Runtime version (default: the scenario's).")
    RuntimeVersion runtime;

    @Option(names = "--gc", paramLabel = "server|workstation", converter = RuntimeOptions.GcConverter.class,
            description = "GC flavour (default: the scenario's).")
    GcFlavor gc;

    @Option(names = "--heaps", paramLabel = "N", description = "Server GC heaps, 1..64 (default: the scenario's).")
    Integer heaps;

    @Option(names = "--seed", paramLabel = "N", description = "The seed of every random choice (default: the scenario's).")
    Long seed;

    @Option(names = "--format", paramLabel = "FORMAT", split = ",", converter = FormatConverter.class,
            description = "What to write, one or more of: elf, minidump, bundle (default: all).")
    List<FixtureFormat> formats;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "The folder to write into (created if missing).")
    Path out;

    @Option(names = {"-q", "--quiet"}, description = "No progress on stderr.")
    boolean quiet;

    @Option(names = "--check-dac", arity = "0..1", paramLabel = "DAC", fallbackValue = "",
            description = "After writing, walk the ELF core and the bundle with Microsoft's DAC (libmscordaccore.so of the "
                    + "scenario's runtime build, or the folder holding it; without a value found as walk --engine dac finds it), "
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
        Scenario s;
        try {
            s = ScenarioOption.resolve(scenario);
        } catch (IllegalArgumentException e) {
            err.println("clrheap generate: " + e.getMessage()); // the scenario file itself is wrong: invalid input
            return EXIT_INVALID_INPUT;
        }
        try {
            s = s.on(runtime == null ? s.runtime() : runtime, gc == null ? s.gc() : gc);
            if (heaps != null || seed != null) {
                s = s.toBuilder().heaps(heaps == null ? s.heaps() : heaps).seed(seed == null ? s.seed() : seed).build();
            }
        } catch (IllegalArgumentException e) {
            // the options do not fit the scenario (4 heaps under workstation GC): bad usage
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (Files.exists(out) && !Files.isDirectory(out)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--out " + out + " is a file, not a folder");
        }
        Set<FixtureFormat> chosen = formats == null || formats.isEmpty() ? EnumSet.allOf(FixtureFormat.class) : EnumSet.copyOf(formats);
        var refusal = check("generate", s, chosen, out, force, quiet ? null : err);
        if (refusal.isPresent()) {
            err.println(refusal.get());
            return EXIT_INVALID_INPUT;
        }
        List<Path> written;
        try {
            written = generate(s, chosen, out, quiet ? null : err);
        } catch (IllegalArgumentException e) {
            err.println("clrheap generate: " + e.getMessage());
            return EXIT_INVALID_INPUT;
        }
        for (Path p : written) {
            stdout.printf("wrote %s%s%n", p, Files.isDirectory(p) ? "/" : String.format(Locale.ROOT, " (%,d bytes)", Files.size(p)));
        }
        if (checkDac == null) {
            return 0;
        }
        return checkDac(written, stdout, err);
    }

    /** {@code --check-dac}: both DAC walks of every written ELF core and bundle equal the answer key, or exit 1. */
    private int checkDac(List<Path> written, PrintWriter stdout, PrintWriter err) throws IOException, InterruptedException {
        Path dac = checkDac.isEmpty() ? null : Path.of(checkDac);
        Path answer = written.stream().filter(Files::isDirectory).findFirst().orElse(null);
        List<Path> dumps = written.stream().filter(p -> p.toString().endsWith(".core") || p.toString().endsWith(".clrheap.tar.xz")).toList();
        if (answer == null || dumps.isEmpty()) {
            err.println("clrheap generate: --check-dac needs an ELF core or a bundle (--format elf or bundle) and the answer key");
            return 2;
        }
        boolean agrees = true;
        DacCheck check = new DacCheck(stdout);
        for (Path dump : dumps) {
            stdout.println("checking " + dump + " with the DAC ...");
            DacCheck.Outcome o = check.check(dump, answer, dac);
            if (!o.made()) {
                err.println("clrheap generate: --check-dac: " + o.summary());
                return 1;
            }
            agrees &= o.agrees();
        }
        if (!agrees) {
            err.println("clrheap generate: the DAC does not read the fixture as its answer key says (above)");
        }
        return agrees ? 0 : 1;
    }

    /**
     * The estimate of generating {@code s} as {@code formats} into {@code folder}, checked against the machine
     * ({@link BuildCheck}): the refusal message when it does not fit; the estimate as a note on {@code note} when large.
     */
    static java.util.Optional<String> check(String command, Scenario s, Set<FixtureFormat> formats, Path folder, boolean force, PrintWriter note) {
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
        return BuildCheck.check(command, s, e, BuildCheck.needs(e, builds, disk, String.join(", ", parts), folder), force, note);
    }

    /**
     * Builds {@code s} and writes the chosen files and the answer key into {@code folder} (through {@link FixtureWriter},
     * with notes and progress bars on {@code progress}, none when it is null); returns what it wrote.
     */
    static List<Path> generate(Scenario s, Set<FixtureFormat> formats, Path folder, PrintWriter progress) throws IOException {
        return FixtureWriter.write(s, formats, folder, ClrheapVersion.current(), progress == null ? FixtureProgress.NONE : new CliProgress(progress));
    }
}
