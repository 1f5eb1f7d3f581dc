package io.clrheap.cli;

import io.clrheap.emulator.Scenarios;
import io.clrheap.generator.ClrheapVersion;
import io.clrheap.conformance.FixtureGlob;
import io.clrheap.conformance.corpus.Added;
import io.clrheap.conformance.corpus.Changed;
import io.clrheap.conformance.corpus.CorpusListener;
import io.clrheap.conformance.corpus.CorpusReport;
import io.clrheap.conformance.corpus.FixtureOutcome;
import io.clrheap.conformance.corpus.GoldenCorpus;
import io.clrheap.conformance.corpus.GoldenFixture;
import io.clrheap.conformance.corpus.Removed;
import io.clrheap.conformance.corpus.Unchanged;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code clrheap golden}: checks the committed synthetic golden corpus against fresh builds, or rewrites it
 * ({@code --update}). A command of its own so that subcommands can join it later (e.g. checking a walker's outputs
 * against the corpus); picocli runs this one when none is given.
 */
@Command(
        name = "golden",
        mixinStandardHelpOptions = true,
        subcommands = GoldenCheckCommand.class,
        description = {"Check the committed golden corpus against fresh builds, or rewrite it with --update.",
            "The golden corpus (golden/synthetic) holds every built-in scenario on net8, net9 and net10 with server "
                    + "and workstation GC: per fixture a bundle, NAME.clrheap.tar.xz (its whole answer key inside), and plain "
                    + "copies of its small answer files in NAME.expected/ (fixture.txt, dumpheap-stat.txt, eeheap.txt, "
                    + "gchandles.txt); the Windows variant of each on net8 and net10 (R-windows-G/NAME.dmp.xz: the minidump "
                    + "generate writes, xz-compressed, and NAME.expected/, the Linux fixture's answer key); and corpus.tsv, a "
                    + "line per fixture. Without --update, each fixture is built again and compared byte for byte; a line is "
                    + "printed per fixture that differs."},
        footer = {
            "",
            "Examples:",
            "  ./clrheap golden                            check the project's corpus",
            "  ./clrheap golden --update                   rewrite what differs",
            "  ./clrheap golden --update --fixtures 'net8-server/*'",
            "  ./clrheap golden --fixtures 'net*-windows-*/*'   the Windows fixtures",
            "  ./clrheap golden --dir /tmp/corpus --update a corpus elsewhere",
            "  ./clrheap golden check golden/real/net8-svr   a real dump against its live-objects.txt",
            "",
            "Exit codes: 0 the corpus equals fresh builds, or --update rewrote it; 1 it differs (run --update if the "
                    + "change is intended) or another failure; 2 bad usage; 3 no corpus at the folder, or the project's folder "
                    + "is not found."})
final class GoldenCommand implements Callable<Integer> {

    static final int EXIT_NO_CORPUS = 3;

    @Option(names = "--update", description = "Rewrite the fixtures that differ, write missing ones, delete those of scenarios that no longer exist, and rewrite corpus.tsv.")
    boolean update;

    @Option(names = "--dir", paramLabel = "DIR", description = "The corpus folder (default: the project's golden/synthetic).")
    Path dir;

    @Option(names = "--fixtures", paramLabel = "GLOB", description = "Only the fixtures whose name (net8-server/default, net8-windows-server/default) matches; may be repeated (default: all).")
    List<String> fixtures = List.of();

    @Option(names = "--jobs", paramLabel = "N", description = "Fixtures built at once (default: one per processor).")
    Integer jobs;

    @Option(names = {"-q", "--quiet"}, description = "No progress on stderr.")
    boolean quiet;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        FixtureGlob glob;
        try {
            glob = new FixtureGlob(fixtures);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--fixtures: " + e.getMessage());
        }
        int threads = jobs == null ? Runtime.getRuntime().availableProcessors() : jobs;
        if (threads < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--jobs is at least 1, not " + jobs);
        }
        Path folder = dir;
        if (folder == null) {
            var found = ProjectHome.goldenCorpus();
            if (found.isEmpty()) {
                err.println("clrheap golden: cannot find the project's golden/synthetic (the " + ProjectHome.PROPERTY
                        + " property is not set and clrheap does not run from cli/target); pass --dir DIR");
                return EXIT_NO_CORPUS;
            }
            folder = found.get();
        }
        if (Files.exists(folder) && !Files.isDirectory(folder)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--dir " + folder + " is a file, not a folder");
        }
        if (!update && !Files.isDirectory(folder)) {
            err.println("clrheap golden: no golden corpus at " + folder + " (write one with ./clrheap golden --update --dir " + folder + ")");
            return EXIT_NO_CORPUS;
        }
        GoldenCorpus corpus = new GoldenCorpus(folder, Scenarios.corpus(), ClrheapVersion.current(), threads, true);
        int planned = planned(corpus, glob);
        if (planned == 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--fixtures " + glob + " matches no fixture; fixtures are named like net8-server/default and net8-windows-server/default");
        }
        if (!quiet) {
            err.printf(Locale.ROOT, "clrheap: %s %d fixture%s of %s, %d at a time ...%n", update ? "updating" : "checking", planned,
                    planned == 1 ? "" : "s", folder, threads);
            err.flush();
        }
        CorpusReport report;
        try (ProgressBar bar = ProgressBar.counting(quiet ? null : err, update ? "golden --update" : "golden", planned, "fixtures")) {
            CorpusListener listener = (outcome, done, total) -> bar.accept(done);
            report = update ? corpus.update(glob, listener) : corpus.check(glob, listener);
        } catch (IllegalArgumentException e) {
            err.println("clrheap golden: " + e.getMessage());
            return 1;
        }
        print(out, report);
        if (update) {
            out.printf(Locale.ROOT, "%nupdated %s: %s%s%n", folder, report.counts(), report.upToDate() ? " (nothing to do)" : "");
            return 0;
        }
        if (report.upToDate()) {
            int n = report.outcomes().size();
            out.printf(Locale.ROOT, "golden corpus %s: %d fixture%s, all equal to fresh builds%n", folder, n, n == 1 ? "" : "s");
            return 0;
        }
        out.printf(Locale.ROOT, "%ngolden corpus %s differs from fresh builds: %s%n", folder, report.counts());
        out.println("If the change is intended, run ./clrheap golden --update" + (glob.all() ? "" : " --fixtures '" + glob + "'")
                + (dir == null ? "" : " --dir " + folder) + ", review the diff and commit it.");
        return 1;
    }

    /** The fixtures a run takes: those the corpus should hold and those it holds. */
    private static int planned(GoldenCorpus corpus, FixtureGlob glob) throws IOException {
        TreeSet<String> ids = new TreeSet<>();
        corpus.fixtures().stream().map(GoldenFixture::id).filter(glob::matches).forEach(ids::add);
        if (Files.isDirectory(corpus.dir())) {
            corpus.committed().stream().map(GoldenFixture::id).filter(glob::matches).forEach(ids::add);
        }
        return ids.size();
    }

    /** One line per fixture that is not unchanged, per stray entry, and for corpus.tsv when it differs; verbs by mode. */
    private void print(PrintWriter out, CorpusReport report) {
        for (FixtureOutcome o : report.outcomes()) {
            String verb = switch (o) {
                case Unchanged u -> null;
                case Changed c -> "changed";
                case Added a -> update ? "added" : "missing";
                case Removed r -> update ? "removed" : "stale";
            };
            if (verb != null) {
                out.printf(Locale.ROOT, "%-8s %s: %s%n", verb, o.fixture().id(), o.summary());
            }
        }
        for (String stray : report.strays()) {
            out.printf(Locale.ROOT, "%-8s %s: not part of any fixture%n", update ? "deleted" : "stray", stray);
        }
        report.index().ifPresent(d -> out.printf(Locale.ROOT, "%-8s %s%n", update ? "rewrote" : "differs", d.describe()));
        out.flush();
    }
}
