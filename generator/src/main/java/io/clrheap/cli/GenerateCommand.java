package io.clrheap.cli;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.Scenario;
import io.clrheap.generator.answer.AnswerKeyWriter;
import io.clrheap.generator.bundle.BundleInfo;
import io.clrheap.generator.bundle.BundleWriter;
import io.clrheap.generator.elf.ElfCoreWriter;
import io.clrheap.generator.minidump.MinidumpWriter;
import io.clrheap.emulator.Platform;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
            "",
            "Exit codes: 0 success; 1 a failure (the message says what and where); 2 bad usage;",
            "3 unreadable or invalid input (a scenario file that is not a scenario)."
        })
final class GenerateCommand implements Callable<Integer> {

    static final int EXIT_INVALID_INPUT = 3;

    /** The file formats generate writes. */
    enum Format {
        ELF("elf", ".core"),
        MINIDUMP("minidump", ".dmp"),
        BUNDLE("bundle", BundleWriter.SUFFIX);

        final String id;
        final String suffix;

        Format(String id, String suffix) {
            this.id = id;
            this.suffix = suffix;
        }

        static Format parse(String value) {
            for (Format f : values()) {
                if (f.id.equals(value.toLowerCase(Locale.ROOT))) {
                    return f;
                }
            }
            throw new CommandLine.TypeConversionException("unknown format '" + value + "' (known: " + String.join(", ", ids()) + ")");
        }

        static List<String> ids() {
            return EnumSet.allOf(Format.class).stream().map(f -> f.id).toList();
        }
    }

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
    List<Format> formats;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "The folder to write into (created if missing).")
    Path out;

    @Option(names = {"-q", "--quiet"}, description = "No progress on stderr.")
    boolean quiet;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    static final class FormatConverter implements CommandLine.ITypeConverter<Format> {
        @Override
        public Format convert(String value) {
            return Format.parse(value);
        }
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Scenario s;
        try {
            s = ScenarioOption.resolve(scenario);
            s = s.on(runtime == null ? s.runtime() : runtime, gc == null ? s.gc() : gc);
            if (heaps != null || seed != null) {
                s = s.toBuilder().heaps(heaps == null ? s.heaps() : heaps).seed(seed == null ? s.seed() : seed).build();
            }
        } catch (IllegalArgumentException e) {
            err.println("clrheap generate: " + e.getMessage());
            return EXIT_INVALID_INPUT;
        }
        if (Files.exists(out) && !Files.isDirectory(out)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--out " + out + " is a file, not a folder");
        }
        Set<Format> chosen = formats == null || formats.isEmpty() ? EnumSet.allOf(Format.class) : EnumSet.copyOf(formats);
        List<Path> written;
        try {
            written = generate(s, chosen, out, quiet ? null : err);
        } catch (IllegalArgumentException e) {
            err.println("clrheap generate: " + e.getMessage());
            return EXIT_INVALID_INPUT;
        }
        for (Path p : written) {
            stdout.printf("wrote %s%s%n", p, Files.isDirectory(p) ? "/" : String.format(java.util.Locale.ROOT, " (%,d bytes)", Files.size(p)));
        }
        return 0;
    }

    /** Builds {@code s} and writes the chosen files and the answer key into {@code folder}; returns what it wrote. */
    static List<Path> generate(Scenario s, Set<Format> formats, Path folder, PrintWriter progress) throws IOException {
        Files.createDirectories(folder);
        long started = System.nanoTime();
        note(progress, "building %s (%s, %s GC, %d heap%s) ...", s.name(), s.runtime().shortName(), s.gc().id(), s.heaps(), s.heaps() == 1 ? "" : "s");
        EmulatedRuntime process;
        try {
            process = new RuntimeBuilder().build(s);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new IllegalArgumentException("scenario " + s.name() + ": " + e.getMessage(), e);
        }
        note(progress, "built: %,d objects in %d regions, %,d MiB of memory (%.1f s)", process.groundTruth().objectCount(),
                process.groundTruth().regions().size(), process.memory().allocatedBytes() >> 20, (System.nanoTime() - started) / 1e9);
        List<Path> written = new ArrayList<>();
        if (formats.contains(Format.ELF)) {
            Path core = folder.resolve(s.name() + Format.ELF.suffix);
            long total = Math.max(1, ElfCoreWriter.memoryBytes(process));
            try (ProgressBar bar = ProgressBar.start(progress, "writing " + core.getFileName(), total)) {
                ElfCoreWriter.write(process, core, bar::update);
            }
            written.add(core);
        }
        if (formats.contains(Format.MINIDUMP)) {
            // the Windows variant of the same process: only the runtime module (coreclr.dll) differs, so one answer key serves both
            Path dump = folder.resolve(s.name() + Format.MINIDUMP.suffix);
            note(progress, "building the Windows variant and writing %s ...", dump.getFileName());
            MinidumpWriter.write(new RuntimeBuilder().platform(Platform.WINDOWS).build(s), dump);
            written.add(dump);
        }
        Path answer = folder.resolve(s.name() + ".answer");
        AnswerKeyWriter.write(process, answer);
        if (formats.contains(Format.BUNDLE)) {
            Path bundle = folder.resolve(s.name() + Format.BUNDLE.suffix);
            note(progress, "writing %s ...", bundle.getFileName());
            BundleWriter.write(process, BundleInfo.of(process, VersionProvider.clrheapVersion()), answer, bundle);
            written.add(bundle);
        }
        written.add(answer);
        return written;
    }

    private static void note(PrintWriter progress, String format, Object... args) {
        if (progress != null) {
            progress.printf("clrheap: " + format + "%n", args);
            progress.flush();
        }
    }
}
