package io.clrheap.cli;

import io.clrheap.emulator.Scenarios;
import io.clrheap.generator.ClrheapVersion;
import io.clrheap.walker.source.FileTrees;
import io.clrheap.walker.source.InProgressFiles;
import io.clrheap.conformance.ConformanceRunner;
import io.clrheap.conformance.ExternalWalker;
import io.clrheap.conformance.Fixture;
import io.clrheap.conformance.FixtureGlob;
import io.clrheap.conformance.FixtureResult;
import io.clrheap.conformance.Reports;
import io.clrheap.conformance.SuiteFixture;
import io.clrheap.generator.fixture.FixtureFormat;
import io.clrheap.conformance.corpus.GoldenCorpus;
import io.clrheap.conformance.corpus.GoldenCorpusCache;
import io.clrheap.walker.source.CacheFolder;
import io.clrheap.conformance.corpus.GoldenSuiteFixture;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code clrheap conform}: checks any heap walker, run as a command, against fixtures with known answers. */
@Command(
        name = "conform",
        mixinStandardHelpOptions = true,
        description = {"Check a heap walker, run as a command, against fixtures with known answers.",
            "Run a heap walker (any language, as a command) on every fixture of a suite, compare its output with each "
                    + "fixture's answer key, and report pass or fail, the count of every kind of difference (wrong size, missing "
                    + "object, ...) with the first five of each (ten of a kind alone), and the mistake each fixture is there to catch."},
        footer = {
            "",
            "What the walker prints (--expect), compared with a file of each answer key:",
            "stat: SOS-style dumpheap -stat text: 'MT Count TotalSize Class Name' rows and the 'Total N objects, "
                    + "M bytes' line; dumpheap-stat.txt.",
            "objects: one '0xADDRESS 0xMT SIZE' line per object; objects.tsv.",
            "refs: one '0xSRC: 0xTARGET 0xTARGET ...' line per object that holds references, its non-null ones "
                    + "in field order (what ./clrheap walk DUMP --refs prints); references.tsv, per object.",
            "live: one '0xADDRESS' line per live object (reachable from the roots that keep objects alive), any "
                    + "order; only the first column counts, so ./clrheap walk DUMP --objects --live is read too; live.tsv, "
                    + "as a set (frozen segments' objects are live: the GC never collects them).",
            "roots: one 'KIND ROOT 0xOBJECT FLAGS THREAD' line per root (tabs or spaces; what ./clrheap walk "
                    + "DUMP --roots prints): handles, finalization queue slots, and stack roots (ROOT a stack slot's 0x "
                    + "address or a register's name, THREAD its OS id; every aligned word from rsp up to the stack's end "
                    + "and every general register, an interior pointer flagged 'interior'), any order; roots.tsv, as a set "
                    + "of rows (a 'conservative' flag is ignored).",
            "fields: one '0xOBJECT FIELD DECLARED_TYPE OFFSET VALUE' line per instance field (tabs; what "
                    + "./clrheap walk DUMP --fields prints; a struct's fields as outer.inner); fields.tsv, row by row: "
                    + "missing, extra and wrong (declared type, offset or value) fields.",
            "eeheap: SOS-style eeheap -gc text (what ./clrheap walk DUMP --eeheap prints); eeheap.txt, line by "
                    + "line.",
            "handles: SOS-style gchandles text (what ./clrheap walk DUMP --handles prints); gchandles.txt, line "
                    + "by line.",
            "eeheap and handles compare every line but blank ones, runs of blanks counting as one (a walker's own "
                    + "column widths pass); docs/reports.md has both formats. For the other kinds, lines that do not start with "
                    + "0x (headers, banners, '#' comments, blank lines) are ignored; for roots, lines whose first column is no "
                    + "root kind.",
            "A difference names the object, its type and size (objects.tsv), its heap, generation and region "
                    + "(regions.tsv); a live one also the roots pointing at it (roots.tsv). Output that looks like another "
                    + "report than --expect asks for gets one hint ('did you mean --expect stat?'); identical lines that do not "
                    + "parse are one line with their count.",
            "Answer keys written before the object graph have no references.tsv, roots.tsv or live.tsv: such a fixture "
                    + "is an error that says so (write it again with ./clrheap generate).",
            "",
            "A suite is a folder that ./clrheap generate wrote fixtures into (named as their files, like "
                    + "default-net8-server), or a golden corpus: 'golden' is the project's committed one, golden/synthetic "
                    + "(fixtures named like net8-server/default and net8-windows-server/default; say ./golden for a folder "
                    + "named golden).",
            "Outside a clone, its fixtures are built once into $CLRHEAP_CACHE (else $XDG_CACHE_HOME/clrheap or "
                    + "~/.cache/clrheap), each checked against the corpus.tsv this clrheap carries.",
            "From a golden corpus the walker reads the committed bundle (--format bundle), or an ELF core or minidump "
                    + "written into a temporary folder from the same scenario, runtime, GC flavour and seed (the corpus test "
                    + "proves that a fresh build is the committed heap byte for byte); the answer key is the committed one.",
            "A Windows fixture (net8-windows-*/*, net10-windows-*/*) is always its committed minidump, decompressed "
                    + "into a temporary folder as NAME.dmp (--format chooses among the Linux fixtures' files); its answer key "
                    + "is its Linux twin's, the same process at the same addresses.",
            "",
            "Examples:",
            "  ./clrheap generate --scenario default,every-edge,collected --out suite/",
            "  ./clrheap conform --walker './clrheap walk {dump} --stat -q' --suite suite/",
            "  ./clrheap conform --walker 'python3 mywalker.py {dump}' --expect objects --format minidump --suite "
                    + "suite/ --report junit.xml",
            "  ./clrheap generate --scenario object-graph --out suite/",
            "  ./clrheap conform --walker './clrheap walk {dump} --refs -q' --expect refs \\",
            "                   --suite suite/",
            "  ./clrheap conform --walker './clrheap walk {dump} --objects --live -q' \\",
            "                   --expect live --suite suite/",
            "  ./clrheap generate --scenario trap-stale-stack --out suite/",
            "  ./clrheap conform --walker './clrheap walk {dump} --roots -q' --expect roots \\",
            "                   --suite suite/",
            "  ./clrheap conform --walker './clrheap walk {dump} --stat -q' --suite golden \\",
            "                   --format bundle --fixtures 'net8-server/*'",
            "  ./clrheap conform --walker 'mywalker.exe {dump}' --suite golden --fixtures 'net8-windows-*/*'",
            "  ./clrheap conform --walker './clrheap walk {dump} --objects -q' --expect objects \\",
            "                   --dac-reference golden/real/net9-wks/core.xz --dac /path/to/9.0.1/libmscordaccore.so",
            "",
            "Whatever the walker prints is read (as bytes, a line at a time): bytes that are not UTF-8 are read as "
                    + "U+FFFD and noted (line, byte); a line over 1 MiB, a number above 2^63 or a row that does not parse fails "
                    + "that fixture naming the line, and the run goes on. After each fixture every process the walker started "
                    + "is ended (asked to stop, killed 2 s later), also background children it left running. Reports are always "
                    + "written.",
            "",
            "Exit codes: 0 every fixture passed; 1 a fixture failed (differences, output that does not parse, a crash "
                    + "or a timeout); 2 bad usage; 3 the suite cannot be read: no fixtures, or a fixture's answer key or dump "
                    + "is broken (the file and line are named; the other fixtures are still checked and reported), or, with "
                    + "--dac-reference, no DAC reference could be made."})
final class ConformCommand implements Callable<Integer> {

    /** The --suite value that names the project's committed golden corpus. */
    static final String GOLDEN = "golden";
    static final int EXIT_NO_SUITE = 3;

    @Option(names = "--walker", required = true, paramLabel = "'COMMAND {dump}'", description = "The walker's command line; {dump} is replaced by each fixture's path.")
    String walker;

    @Option(names = "--suite", paramLabel = "golden|DIR",
            description = "The fixtures: golden (the project's committed golden corpus; outside a clone, built once into the cache "
                    + "folder and checked against the corpus this clrheap was released with), or a folder written by ./clrheap generate or ./clrheap golden.")
    String suite;

    @Option(names = "--dac-reference", paramLabel = "DUMP",
            description = "Instead of a suite: a real dump (ELF core or .xz of one) whose reference answer is what Microsoft's DAC reads "
                    + "in it (SOS path: every object and free object); may be repeated. The DAC is --dac, or found as walk --engine dac finds it.")
    List<Path> dacReference = List.of();

    @CommandLine.Mixin
    DacOption dacOption = new DacOption();

    @Option(names = "--fixtures", paramLabel = "GLOB", description = "Only the fixtures whose name matches (default-net8-*, net8-server/*); may be repeated (default: all).")
    List<String> fixtures = List.of();

    @Option(names = "--format", paramLabel = "elf|minidump|bundle", converter = GenerateCommand.FormatConverter.class,
            description = "Which file of each fixture the walker reads (default: ${DEFAULT-VALUE}); a golden corpus's Windows fixtures are always their minidump.", defaultValue = "elf")
    FixtureFormat format = FixtureFormat.ELF;

    @Option(names = "--expect", paramLabel = "stat|objects|refs|live|roots|fields|eeheap|handles", description = "What the walker prints (the formats are below; default: ${DEFAULT-VALUE}).",
            defaultValue = "stat")
    String expect = "stat";

    @Option(names = "--report", paramLabel = "FILE", description = "Also write a report: FILE.xml (JUnit) or FILE.html; may be repeated.")
    List<Path> reports = List.of();

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "How long the walker may take on one fixture (default: ${DEFAULT-VALUE}).",
            defaultValue = "120")
    long timeout = 120;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ConformanceRunner.Expect e = switch (expect.toLowerCase(Locale.ROOT)) {
            case "stat" -> ConformanceRunner.Expect.STAT;
            case "objects" -> ConformanceRunner.Expect.OBJECTS;
            case "refs" -> ConformanceRunner.Expect.REFS;
            case "live" -> ConformanceRunner.Expect.LIVE;
            case "roots" -> ConformanceRunner.Expect.ROOTS;
            case "fields" -> ConformanceRunner.Expect.FIELDS;
            case "eeheap" -> ConformanceRunner.Expect.EEHEAP;
            case "handles" -> ConformanceRunner.Expect.HANDLES;
            default -> throw new CommandLine.ParameterException(spec.commandLine(), "--expect is stat, objects, refs, live, roots, fields, eeheap or handles, not '"
                    + expect + "'");
        };
        ExternalWalker command;
        try {
            command = ExternalWalker.parse(walker, timeout);
        } catch (IllegalArgumentException ex) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--walker: " + ex.getMessage());
        }
        FixtureGlob glob;
        try {
            glob = new FixtureGlob(fixtures);
        } catch (IllegalArgumentException ex) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--fixtures: " + ex.getMessage());
        }
        for (Path report : reports) {
            try {
                Reports.check(report);
            } catch (IllegalArgumentException ex) {
                throw new CommandLine.ParameterException(spec.commandLine(), ex.getMessage());
            }
            Path parent = report.toAbsolutePath().getParent();
            if (parent != null && !Files.isDirectory(parent)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--report " + report + ": no folder " + parent);
            }
        }
        if ((suite == null) == dacReference.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give either --suite or --dac-reference");
        }
        if (!dacReference.isEmpty() && e != ConformanceRunner.Expect.STAT && e != ConformanceRunner.Expect.OBJECTS) {
            // the DAC reference's answer key is the DAC's object walk: it has no references, roots, regions or handles
            throw new CommandLine.ParameterException(spec.commandLine(), "--dac-reference answers --expect stat and objects; --expect " + expect
                    + " needs a --suite (its answer keys hold references.tsv, roots.tsv, live.tsv, eeheap.txt and gchandles.txt)");
        }
        if (!dacReference.isEmpty()) {
            return againstDac(command, e, out, err);
        }
        Path folder;
        if (suite.equals(GOLDEN)) {
            Optional<Path> corpus = ProjectHome.goldenCorpus().filter(Files::isDirectory);
            if (corpus.isEmpty()) {
                // outside a clone: the corpus built again into the user's cache, each fixture checked against the released index
                Optional<Path> cached = cachedGoldenCorpus(glob, err);
                if (cached.isEmpty()) {
                    return EXIT_NO_SUITE;
                }
                corpus = cached;
            }
            folder = corpus.get();
        } else {
            folder = Path.of(suite);
        }
        if (!Files.isDirectory(folder)) {
            err.println("clrheap conform: --suite " + folder + " is not a folder");
            return EXIT_NO_SUITE;
        }
        List<? extends SuiteFixture> all;
        try {
            all = fixturesOf(folder, format);
        } catch (IOException | RuntimeException ex) {
            err.println("clrheap conform: --suite " + folder + " cannot be read: " + (ex.getMessage() == null ? ex.toString() : ex.getMessage()));
            return EXIT_NO_SUITE;
        }
        if (all.isEmpty()) {
            err.printf(Locale.ROOT, "clrheap conform: %s holds no fixtures with a %s file (NAME%s beside NAME.answer/, or a golden corpus's "
                    + "<runtime>-<gc>/NAME.clrheap.tar.xz or <runtime>-windows-<gc>/NAME.dmp.xz beside NAME.expected/); write some with ./clrheap generate%n", folder, format.id(), format.suffix());
            return EXIT_NO_SUITE;
        }
        List<? extends SuiteFixture> chosen = all.stream().filter(f -> glob.matches(f.name())).toList();
        if (chosen.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), String.format(Locale.ROOT, "--fixtures %s matches none of the %d fixtures of %s (e.g. %s)",
                    glob, all.size(), folder, all.getFirst().name()));
        }
        Path work = workFolder();
        try {
            return run(command, e, chosen, work, out);
        } finally {
            FileTrees.deleteTree(work);
            InProgressFiles.unregister(work);
        }
    }

    /** A new folder for the walkers' outputs and the fixtures: a stopped JVM removes it. */
    private static Path workFolder() throws IOException {
        Path work = Files.createTempDirectory("clrheap-conform");
        InProgressFiles.register(work, work + "/ (conform's work folder)");
        return work;
    }

    /** {@code --dac-reference}: each dump's answer key is written from the DAC's walk, then the walker is checked against it. */
    private int againstDac(ExternalWalker command, ConformanceRunner.Expect e, PrintWriter out, PrintWriter err) throws Exception {
        Path work = workFolder();
        try {
            List<io.clrheap.conformance.Fixture> chosen = new java.util.ArrayList<>();
            for (Path dump : dacReference) {
                if (!Files.isRegularFile(dump)) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "--dac-reference " + dump + ": no such file");
                }
                try {
                    chosen.add(DacReference.fixture(dump, dacOption.dac, work));
                } catch (io.clrheap.dac.library.DacException | io.clrheap.walker.runtime.TargetException | io.clrheap.walker.source.DumpFormatException ex) {
                    err.println("clrheap conform: " + dump + ": no DAC reference: " + ex.getMessage());
                    return EXIT_NO_SUITE;
                }
                out.println("reference: " + chosen.getLast().about());
            }
            return run(command, e, chosen, work, out);
        } finally {
            FileTrees.deleteTree(work);
            InProgressFiles.unregister(work);
        }
    }

    /**
     * Runs the walker on every fixture, printing each verdict as it is known; the reports are written whatever happens
     * (with the fixtures checked so far when the run itself stops). Exit 3 when a fixture of the suite cannot be read
     * (its answer key or dump), else 1 when one failed, else 0.
     */
    private int run(ExternalWalker command, ConformanceRunner.Expect e, List<? extends SuiteFixture> chosen, Path work, PrintWriter out)
            throws IOException, InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        int width = chosen.stream().mapToInt(f -> f.name().length()).max().orElse(0);
        List<FixtureResult> results = new ArrayList<>();
        boolean reportsFailed = false;
        try {
            new ConformanceRunner(command, e, work).run(chosen, r -> {
                results.add(r);
                out.printf(Locale.ROOT, "%s %-" + width + "s %s%n", r.passed() ? "PASS" : r.broken() ? "ERROR" : "FAIL", r.fixture().name(), r.verdict());
                if (!r.passed()) {
                    out.println("     designed to catch: " + r.fixture().about());
                    r.details().forEach(d -> out.println("     " + d));
                }
                r.notes().forEach(n -> out.println("     note: " + n));
                out.flush();
            });
        } finally {
            for (Path report : reports) {
                try {
                    Reports.write(report, walker, results);
                    out.println("wrote " + report);
                } catch (IOException | RuntimeException ex) {
                    err.println("clrheap conform: cannot write the report " + report + ": " + ex.getMessage());
                    reportsFailed = true;
                }
            }
            out.flush();
        }
        long failed = results.stream().filter(r -> r.status() == FixtureResult.Status.FAILED).count();
        long broken = results.stream().filter(FixtureResult::broken).count();
        long passed = results.size() - failed - broken;
        out.printf(Locale.ROOT, "%n%d of %d fixtures passed%s%s.%n", passed, results.size(), failed == 0 ? "" : "; " + failed + " failed",
                broken == 0 ? "" : "; " + broken + " cannot be read (the suite is broken, not the walker)");
        if (broken > 0) {
            return EXIT_NO_SUITE;
        }
        return failed == 0 && !reportsFailed ? 0 : 1;
    }

    /**
     * The fixtures of a suite folder: those ./clrheap generate wrote (NAME.answer/ beside the dump) when it holds any,
     * else those of a golden corpus (its runtime-gc folders).
     */
    private static List<? extends SuiteFixture> fixturesOf(Path folder, FixtureFormat format) throws IOException {
        List<Fixture> generated = Fixture.inSuite(folder, format.suffix());
        if (!generated.isEmpty()) {
            return generated;
        }
        GoldenCorpus corpus = new GoldenCorpus(folder, Scenarios.corpus(), ClrheapVersion.current(), 1, true);
        return GoldenSuiteFixture.inCorpus(corpus, format);
    }

    /**
     * The golden corpus in the user's cache ({@code clrheap.cache} property, {@code CLRHEAP_CACHE}, {@code $XDG_CACHE_HOME/clrheap}
     * or {@code ~/.cache/clrheap}), its fixtures the glob takes built now where missing; empty after saying why on {@code err}.
     */
    private static Optional<Path> cachedGoldenCorpus(FixtureGlob glob, PrintWriter err) {
        try {
            Optional<byte[]> index = GoldenCorpusCache.releasedIndex();
            if (index.isEmpty()) {
                err.println("clrheap conform: --suite golden: this clrheap was built without its corpus.tsv and runs outside a clone "
                        + "of the project; pass a corpus folder (./clrheap golden --update writes one)");
                return Optional.empty();
            }
            Path root = CacheFolder.ofThisProcess().root();
            GoldenCorpusCache cache = new GoldenCorpusCache(root, index.get(), GoldenCorpus.builtIn(root));
            int[] built = {0};
            Path dir = cache.prepare(glob, (fixture, wasBuilt, done, total) -> {
                if (wasBuilt) {
                    if (built[0]++ == 0) {
                        err.println("clrheap conform: building the golden corpus into " + cache.dir() + " (once; each fixture checked against the released corpus.tsv)");
                    }
                    err.printf(Locale.ROOT, "  [%d/%d] %s%n", done, total, fixture);
                }
            });
            return Optional.of(dir);
        } catch (IOException | RuntimeException e) {
            err.println("clrheap conform: --suite golden: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return Optional.empty();
        }
    }
}
