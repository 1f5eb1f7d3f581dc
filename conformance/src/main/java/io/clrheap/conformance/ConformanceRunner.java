package io.clrheap.conformance;

import io.clrheap.walker.source.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/** Runs an external walker on every fixture of a suite and compares each output with its answer key. */
public final class ConformanceRunner {

    /**
     * What the walker prints: SOS {@code dumpheap -stat} text, an object listing {@code address mt size}, every
     * object's references {@code 0xSRC: 0xTARGET …}, the live objects {@code 0xADDRESS}, the roots, SOS {@code eeheap -gc} or
     * {@code gchandles} text; and the answer key file each is compared with.
     */
    public enum Expect {
        STAT("dumpheap-stat.txt"), OBJECTS("objects.tsv"), REFS(GraphComparison.REFERENCES), LIVE(GraphComparison.LIVE),
        /** The roots, roots.tsv's rows {@code kind root object flags thread} (docs/answer-key.md), compared as a set. */
        ROOTS(GraphComparison.ROOTS),
        /** The objects' fields, fields.tsv's rows {@code object field declared_type offset value} (docs/answer-key.md), compared row by row. */
        FIELDS(GraphComparison.FIELDS),
        /** SOS {@code eeheap -gc} text (docs/reports.md), compared line by line with the key's. */
        EEHEAP("eeheap.txt"),
        /** SOS {@code gchandles} text (docs/reports.md), compared line by line with the key's. */
        HANDLES("gchandles.txt");

        private final String keyFile;

        Expect(String keyFile) {
            this.keyFile = keyFile;
        }

        /** The answer key file it is compared with. */
        public String keyFile() {
            return keyFile;
        }

        /** Whether the key file is one of the object graph's, which answer keys written before it lack. */
        boolean graph() {
            return this == REFS || this == LIVE || this == ROOTS || this == FIELDS;
        }
    }

    private final ExternalWalker walker;
    private final Expect expect;
    private final Path workDir;

    /** @param workDir where each fixture gets a folder of its own while it is checked (its walker output, files it writes) */
    public ConformanceRunner(ExternalWalker walker, Expect expect, Path workDir) {
        this.walker = walker;
        this.expect = expect;
        this.workDir = workDir;
    }

    /** Checks every fixture in turn; {@code each} hears of every result as it is known. */
    public List<FixtureResult> run(List<? extends SuiteFixture> fixtures, Consumer<FixtureResult> each) throws IOException, InterruptedException {
        List<FixtureResult> results = new ArrayList<>();
        for (SuiteFixture f : fixtures) {
            FixtureResult r = check(f);
            results.add(r);
            each.accept(r);
        }
        return results;
    }

    /**
     * Makes the fixture ready in a work folder of its own, runs the walker on it, compares, and deletes the folder.
     * Whatever the walker does or prints, and whatever the fixture's files hold, the outcome is a result: a fixture
     * that cannot be made ready or whose answer key cannot be read is {@link FixtureResult.Status#BROKEN}.
     */
    FixtureResult check(SuiteFixture fixture) throws IOException, InterruptedException {
        Path work = Files.createTempDirectory(workDir, "fixture-");
        try {
            Fixture ready;
            try {
                ready = fixture.prepare(work);
            } catch (IOException | RuntimeException e) {
                return new FixtureResult(fixture, FixtureResult.Status.BROKEN, "the fixture cannot be made ready", List.of(message(e)), List.of(), 0);
            }
            return check(fixture, ready, work.resolve("walker.out"));
        } finally {
            FileTrees.deleteTree(work);
        }
    }

    private FixtureResult check(SuiteFixture fixture, Fixture ready, Path output) throws InterruptedException {
        if (expect.graph() && !Files.exists(ready.answer().resolve(expect.keyFile()))) {
            // an answer key written before the object graph: say so once, not a 'no such file' after running the walker
            return new FixtureResult(fixture, FixtureResult.Status.BROKEN, "the answer key has no " + expect.keyFile(), List.of(String.format(Locale.ROOT,
                    "%s has no %s: it was written by a clrheap from before the object graph (references.tsv, roots.tsv, live.tsv); "
                            + "write the fixture again with this clrheap (./clrheap generate, or ./clrheap golden --update for a corpus)",
                    ready.answer(), expect.keyFile())), List.of(), 0);
        }
        long started = System.nanoTime();
        ExternalWalker.Run run;
        try {
            run = walker.run(ready.dump(), output);
        } catch (IOException | RuntimeException e) {
            return new FixtureResult(fixture, FixtureResult.Status.FAILED, "the walker cannot be run", List.of(message(e)), List.of(), 0);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        List<String> notes = new ArrayList<>();
        run.leftOver().forEach(p -> notes.add("ended a process the walker left running: " + p));
        if (run.timedOut()) {
            return new FixtureResult(fixture, FixtureResult.Status.FAILED, String.format(Locale.ROOT, "timed out after %d s (killed)", walker.timeoutSeconds()),
                    stderr(run), notes, seconds);
        }
        if (run.stopped() != null) {
            return new FixtureResult(fixture, FixtureResult.Status.FAILED, "the walker " + run.stopped(), stderr(run), notes, seconds);
        }
        if (run.crashed()) {
            return new FixtureResult(fixture, FixtureResult.Status.FAILED, "the walker failed with exit code " + run.exitCode(), stderr(run), notes, seconds);
        }
        Comparison.Result result;
        try {
            switch (expect) {
                case STAT -> {
                    WalkerOutput.Stat stat = WalkerOutput.parseStat(output);
                    notes.addAll(0, stat.notes());
                    result = Comparison.stat(stat, ready.answer());
                }
                case OBJECTS -> {
                    WalkerOutput.Listing listing = WalkerOutput.readObjects(output);
                    notes.addAll(0, listing.notes());
                    result = Comparison.objects(listing, ready.answer());
                }
                case REFS -> {
                    ReferenceListing refs = ReferenceListing.read(output);
                    notes.addAll(0, refs.notes());
                    result = GraphComparison.references(refs, ready.answer());
                }
                case LIVE -> {
                    LiveListing live = LiveListing.read(output);
                    notes.addAll(0, live.notes());
                    result = GraphComparison.live(live, ready.answer());
                }
                case ROOTS -> {
                    RootListing roots = RootListing.read(output);
                    notes.addAll(0, roots.notes());
                    result = GraphComparison.roots(roots, ready.answer());
                }
                case FIELDS -> {
                    FieldListing fields = FieldListing.read(output);
                    notes.addAll(0, fields.notes());
                    result = GraphComparison.fields(fields, ready.answer());
                }
                case EEHEAP, HANDLES -> result = ReportComparison.lines(output, ready.answer().resolve(expect.keyFile()));
                default -> throw new IllegalStateException("unknown --expect " + expect);
            }
        } catch (AnswerKeyException e) {
            return new FixtureResult(fixture, FixtureResult.Status.BROKEN, "the answer key cannot be read", List.of(e.getMessage()), notes, seconds);
        } catch (IOException | RuntimeException e) {
            return new FixtureResult(fixture, FixtureResult.Status.FAILED, "the walker's output cannot be compared", List.of(message(e)), notes, seconds);
        }
        return new FixtureResult(fixture, result.passed() ? FixtureResult.Status.PASSED : FixtureResult.Status.FAILED,
                result.passed() ? "passed" : String.format(Locale.ROOT, "%,d difference%s", result.differences(), result.differences() == 1 ? "" : "s"),
                result.first(), notes, seconds);
    }

    private static List<String> stderr(ExternalWalker.Run run) {
        return run.errorTail().isEmpty() ? List.of() : List.of("stderr: " + run.errorTail().lines().reduce((a, b) -> b).orElse(""));
    }

    private static String message(Exception e) {
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }
}
