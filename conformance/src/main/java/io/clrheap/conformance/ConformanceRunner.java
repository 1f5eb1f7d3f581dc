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
        STAT("dumpheap-stat.txt", "`dumpheap -stat` rows ('MT Count TotalSize Class Name')"),
        OBJECTS("objects.tsv", "an object listing ('0xADDRESS 0xMT SIZE' lines)"),
        REFS(GraphComparison.REFERENCES, "references ('0xSRC: 0xTARGET ...' lines)"),
        LIVE(GraphComparison.LIVE, "live objects ('0xADDRESS' lines)"),
        /** The roots, roots.tsv's rows {@code kind root object flags thread} (docs/answer-key.md), compared as a set. */
        ROOTS(GraphComparison.ROOTS, "roots ('kind root object flags thread' rows)"),
        /** The objects' fields, fields.tsv's rows {@code object field declared_type offset value} (docs/answer-key.md), compared row by row. */
        FIELDS(GraphComparison.FIELDS, "fields ('object field declared_type offset value' rows)"),
        /** SOS {@code eeheap -gc} text (docs/reports.md), compared line by line with the key's. */
        EEHEAP("eeheap.txt", "`eeheap -gc` text"),
        /** SOS {@code gchandles} text (docs/reports.md), compared line by line with the key's. */
        HANDLES("gchandles.txt", "`gchandles` text");

        private final String keyFile;
        private final String looks;

        Expect(String keyFile, String looks) {
            this.keyFile = keyFile;
            this.looks = looks;
        }

        /** What output of this kind looks like, for a hint that the walker printed another. */
        String looks() {
            return looks;
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
        // whether the walker printed no row of the format asked for: then its output may be another report's
        boolean nothingRead;
        try {
            switch (expect) {
                case STAT -> {
                    WalkerOutput.Stat stat = WalkerOutput.parseStat(output);
                    notes.addAll(0, stat.notes());
                    nothingRead = stat.rows().isEmpty() && stat.totalObjects() == -1;
                    result = Comparison.stat(stat, ready.answer());
                }
                case OBJECTS -> {
                    WalkerOutput.Listing listing = WalkerOutput.readObjects(output);
                    notes.addAll(0, listing.notes());
                    nothingRead = listing.objects().isEmpty();
                    result = Comparison.objects(listing, ready.answer());
                }
                case REFS -> {
                    ReferenceListing refs = ReferenceListing.read(output);
                    notes.addAll(0, refs.notes());
                    nothingRead = refs.size() == 0;
                    result = GraphComparison.references(refs, ready.answer());
                }
                case LIVE -> {
                    LiveListing live = LiveListing.read(output);
                    notes.addAll(0, live.notes());
                    nothingRead = live.addresses().length == 0;
                    result = GraphComparison.live(live, ready.answer());
                }
                case ROOTS -> {
                    RootListing roots = RootListing.read(output);
                    notes.addAll(0, roots.notes());
                    nothingRead = roots.rows().isEmpty();
                    result = GraphComparison.roots(roots, ready.answer());
                }
                case FIELDS -> {
                    FieldListing fields = FieldListing.read(output);
                    notes.addAll(0, fields.notes());
                    nothingRead = fields.rows().isEmpty();
                    result = GraphComparison.fields(fields, ready.answer());
                }
                case EEHEAP, HANDLES -> {
                    // text compared line by line has no rows; its headings tell it from other reports
                    nothingRead = true;
                    result = ReportComparison.lines(output, ready.answer().resolve(expect.keyFile()));
                }
                default -> throw new IllegalStateException("unknown --expect " + expect);
            }
        } catch (AnswerKeyException e) {
            return new FixtureResult(fixture, FixtureResult.Status.BROKEN, "the answer key cannot be read", List.of(e.getMessage()), notes, seconds);
        } catch (IOException | RuntimeException e) {
            return new FixtureResult(fixture, FixtureResult.Status.FAILED, "the walker's output cannot be compared", List.of(message(e)), notes, seconds);
        }
        if (result.passed()) {
            return new FixtureResult(fixture, FixtureResult.Status.PASSED, "passed", List.of(), List.of(), "", notes, seconds);
        }
        return new FixtureResult(fixture, FixtureResult.Status.FAILED, String.format(Locale.ROOT, "%,d difference%s: %s", result.differences(),
                result.differences() == 1 ? "" : "s", result.summary()), List.of(), result.kinds(), nothingRead ? hint(output) : "", notes, seconds);
    }

    /** "did you mean --expect stat?" when the output looks like another report than the one asked for; empty when it does not. */
    private String hint(Path output) {
        try {
            return OutputShape.of(output).filter(shape -> shape != expect).map(shape -> OutputShape.hint(shape, expect)).orElse("");
        } catch (IOException e) {
            return "";
        }
    }

    private static List<String> stderr(ExternalWalker.Run run) {
        return run.errorTail().isEmpty() ? List.of() : List.of("stderr: " + run.errorTail().lines().reduce((a, b) -> b).orElse(""));
    }

    private static String message(Exception e) {
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }
}
