package io.clrheap.cli;

import io.clrheap.generator.fixture.FixtureProgress;
import java.io.PrintWriter;

/** Writing progress on stderr: notes as {@code clrheap: ...} lines, long steps as a {@link ProgressBar}. */
final class CliProgress implements FixtureProgress {

    private final PrintWriter err;

    CliProgress(PrintWriter err) {
        this.err = err;
    }

    @Override
    public void note(String message) {
        err.println("clrheap: " + message);
        err.flush();
    }

    @Override
    public Step step(String label, long totalBytes) {
        return ProgressBar.start(err, label, totalBytes);
    }

    @Override
    public Step step(String label, long total, String unit) {
        return ProgressBar.counting(err, label, total, unit);
    }
}
