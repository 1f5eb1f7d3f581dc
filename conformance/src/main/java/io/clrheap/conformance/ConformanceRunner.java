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

    /** What the walker prints: SOS {@code dumpheap -stat} text, or an object listing {@code address mt size}. */
    public enum Expect {
        STAT, OBJECTS
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

    /** Makes the fixture ready in a work folder of its own, runs the walker on it, compares, and deletes the folder. */
    FixtureResult check(SuiteFixture fixture) throws IOException, InterruptedException {
        Path work = Files.createTempDirectory(workDir, "fixture-");
        try {
            Fixture ready;
            try {
                ready = fixture.prepare(work);
            } catch (IOException | IllegalArgumentException e) {
                return new FixtureResult(fixture, false, "the fixture cannot be made ready", List.of(e.getMessage() == null ? e.toString() : e.getMessage()), 0);
            }
            return check(fixture, ready, work.resolve("walker.out"));
        } finally {
            FileTrees.deleteTree(work);
        }
    }

    private FixtureResult check(SuiteFixture fixture, Fixture ready, Path output) throws IOException, InterruptedException {
        long started = System.nanoTime();
        ExternalWalker.Run run = walker.run(ready.dump(), output);
        double seconds = (System.nanoTime() - started) / 1e9;
        if (run.timedOut()) {
            return new FixtureResult(fixture, false, String.format(Locale.ROOT, "timed out after %d s (killed)", walker.timeoutSeconds()), List.of(), seconds);
        }
        if (run.crashed()) {
            List<String> tail = run.errorTail().isEmpty() ? List.of() : List.of("stderr: " + run.errorTail().lines().reduce((a, b) -> b).orElse(""));
            return new FixtureResult(fixture, false, "the walker failed with exit code " + run.exitCode(), tail, seconds);
        }
        Comparison.Result result = expect == Expect.STAT
                ? Comparison.stat(WalkerOutput.parseStat(output), ready.answer())
                : Comparison.objects(WalkerOutput.parseObjects(output), ready.answer());
        return new FixtureResult(fixture, result.passed(),
                result.passed() ? "passed" : String.format(Locale.ROOT, "%,d difference%s", result.differences(), result.differences() == 1 ? "" : "s"),
                result.first(), seconds);
    }
}
