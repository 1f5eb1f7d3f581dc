package io.clrheap.cli;

import io.clrheap.generator.conform.ConformanceRunner;
import io.clrheap.generator.conform.ExternalWalker;
import io.clrheap.generator.conform.Fixture;
import io.clrheap.generator.conform.FixtureResult;
import io.clrheap.generator.conform.Reports;
import io.clrheap.generator.fixture.FixtureFormat;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code clrheap conform}: checks any heap walker, run as a command, against fixtures with known answers. */
@Command(
        name = "conform",
        mixinStandardHelpOptions = true,
        description = {"Check a heap walker, run as a command, against fixtures with known answers.",
            "Run a heap walker (any language, as a command) on every fixture of a suite, compare its output with each",
            "fixture's answer key, and report pass or fail with the first differences and the mistake each fixture is there to catch."},
        footer = {
            "",
            "The walker prints SOS-style dumpheap -stat text (--expect stat) or one 'address mt size' line per object (--expect objects).",
            "A suite is a folder that ./clrheap generate wrote fixtures into.",
            "",
            "Examples:",
            "  for s in default every-edge collected; do ./clrheap generate --scenario $s --out suite/; done",
            "  ./clrheap conform --walker './clrheap walk {dump} --stat -q' --suite suite/",
            "  ./clrheap conform --walker 'python3 mywalker.py {dump}' --expect objects --format minidump --suite suite/ --report junit.xml",
            "",
            "Exit codes: 0 every fixture passed; 1 a fixture failed (differences, a crash or a timeout); 2 bad usage;",
            "3 the suite cannot be read."
        })
final class ConformCommand implements Callable<Integer> {

    @Option(names = "--walker", required = true, paramLabel = "'COMMAND {dump}'", description = "The walker's command line; {dump} is replaced by each fixture's path.")
    String walker;

    @Option(names = "--suite", required = true, paramLabel = "DIR", description = "The fixtures: a folder written by ./clrheap generate.")
    Path suite;

    @Option(names = "--format", paramLabel = "elf|minidump|bundle", converter = GenerateCommand.FormatConverter.class,
            description = "Which file of each fixture the walker reads (default: ${DEFAULT-VALUE}).", defaultValue = "elf")
    FixtureFormat format = FixtureFormat.ELF;

    @Option(names = "--expect", paramLabel = "stat|objects", description = "What the walker prints (default: ${DEFAULT-VALUE}).", defaultValue = "stat")
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
        FixtureFormat f = format;
        ConformanceRunner.Expect e = switch (expect.toLowerCase(Locale.ROOT)) {
            case "stat" -> ConformanceRunner.Expect.STAT;
            case "objects" -> ConformanceRunner.Expect.OBJECTS;
            default -> throw new CommandLine.ParameterException(spec.commandLine(), "--expect is stat or objects, not '" + expect + "'");
        };
        ExternalWalker command;
        try {
            command = ExternalWalker.parse(walker, timeout);
        } catch (IllegalArgumentException ex) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--walker: " + ex.getMessage());
        }
        if (!Files.isDirectory(suite)) {
            err.println("clrheap conform: --suite " + suite + " is not a folder");
            return 3;
        }
        List<Fixture> fixtures = Fixture.inSuite(suite, f.suffix());
        if (fixtures.isEmpty()) {
            err.printf("clrheap conform: %s holds no fixtures with a %s file (NAME%s beside NAME.answer/); write some with ./clrheap generate%n",
                    suite, f.id(), f.suffix());
            return 3;
        }
        Path work = Files.createTempDirectory("clrheap-conform");
        List<FixtureResult> results;
        try {
            results = new ConformanceRunner(command, e, work).run(fixtures, r -> {
                out.printf("%s %-28s %s%n", r.passed() ? "PASS" : "FAIL", r.fixture().name(), r.verdict());
                if (!r.passed()) {
                    out.println("     designed to catch: " + r.fixture().about());
                    r.differences().forEach(d -> out.println("     " + d));
                }
                out.flush();
            });
        } finally {
            try (var left = Files.list(work)) {
                for (Path p : left.toList()) {
                    Files.deleteIfExists(p);
                }
            }
            Files.deleteIfExists(work);
        }
        long failed = results.stream().filter(r -> !r.passed()).count();
        out.printf("%n%d of %d fixtures passed%s.%n", results.size() - failed, results.size(), failed == 0 ? "" : "; " + failed + " failed");
        for (Path report : reports) {
            Reports.write(report, walker, results);
            out.println("wrote " + report);
        }
        return failed == 0 ? 0 : 1;
    }
}
