package io.clrheap.cli;

import io.clrheap.generator.fixture.FixtureProgress;
import java.io.PrintWriter;

/**
 * Writing progress on stderr: notes as {@code clrheap: ...} lines (or behind another prefix, such as a batch's
 * {@code [3/12] every-edge net9 server: }), long steps as a {@link ProgressBar}.
 */
final class CliProgress implements FixtureProgress {

    private final PrintWriter err;
    private final String prefix;

    CliProgress(PrintWriter err) {
        this(err, "clrheap: ");
    }

    CliProgress(PrintWriter err, String prefix) {
        this.err = err;
        this.prefix = prefix;
    }

    @Override
    public void note(String message) {
        err.println(prefix + message);
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
