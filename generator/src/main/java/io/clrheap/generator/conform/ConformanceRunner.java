package io.clrheap.generator.conform;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

    /** @param workDir where walker outputs are kept while a fixture is checked */
    public ConformanceRunner(ExternalWalker walker, Expect expect, Path workDir) {
        this.walker = walker;
        this.expect = expect;
        this.workDir = workDir;
    }

    /** Checks every fixture; {@code each} hears of every result as it is known. */
    public List<FixtureResult> run(List<Fixture> fixtures, Consumer<FixtureResult> each) throws IOException, InterruptedException {
        List<FixtureResult> results = new ArrayList<>();
        for (Fixture f : fixtures) {
            FixtureResult r = check(f);
            results.add(r);
            each.accept(r);
        }
        return results;
    }

    FixtureResult check(Fixture fixture) throws IOException, InterruptedException {
        Path output = workDir.resolve(fixture.name() + ".out");
        long started = System.nanoTime();
        ExternalWalker.Run run = walker.run(fixture.dump(), output);
        double seconds = (System.nanoTime() - started) / 1e9;
        try {
            if (run.timedOut()) {
                return new FixtureResult(fixture, false, String.format("timed out after %d s (killed)", walker.timeoutSeconds()), List.of(), seconds);
            }
            if (run.crashed()) {
                List<String> tail = run.errorTail().isEmpty() ? List.of() : List.of("stderr: " + run.errorTail().lines().reduce((a, b) -> b).orElse(""));
                return new FixtureResult(fixture, false, "the walker failed with exit code " + run.exitCode(), tail, seconds);
            }
            Comparison.Result result = expect == Expect.STAT
                    ? Comparison.stat(WalkerOutput.parseStat(output), fixture.answer())
                    : Comparison.objects(WalkerOutput.parseObjects(output), fixture.answer());
            return new FixtureResult(fixture, result.passed(),
                    result.passed() ? "passed" : String.format("%,d difference%s", result.differences(), result.differences() == 1 ? "" : "s"),
                    result.first(), seconds);
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
