package io.clrheap.cli;

import io.clrheap.generator.fixture.FixtureProgress;
import java.io.PrintWriter;

/**
 * A progress bar on stderr for long writes: redrawn at most every half second, only once the work has taken more
 * than a second (small fixtures print nothing), and finished with the total.
 */
final class ProgressBar implements FixtureProgress.Step {

    private static final long QUIET_NANOS = 1_000_000_000L;
    private static final long PERIOD_NANOS = 500_000_000L;
    private static final int WIDTH = 30;

    private final PrintWriter err;
    private final String label;
    private final long total;
    private final long started = System.nanoTime();
    private long lastDrawn;
    private long done;
    private boolean drawn;

    private ProgressBar(PrintWriter err, String label, long total) {
        this.err = err;
        this.label = label;
        this.total = total;
    }

    /** A bar over {@code total} units; with a null stream, one that draws nothing. */
    static ProgressBar start(PrintWriter err, String label, long total) {
        return new ProgressBar(err, label, Math.max(1, total));
    }

    @Override
    public void accept(long doneSoFar) {
        done = doneSoFar;
        long now = System.nanoTime();
        if (err == null || now - started < QUIET_NANOS || now - lastDrawn < PERIOD_NANOS) {
            return;
        }
        lastDrawn = now;
        draw();
    }

    private void draw() {
        int filled = (int) (WIDTH * Math.min(done, total) / total);
        err.printf("\rclrheap: %s [%s%s] %3d%% (%,d of %,d MiB)", label, "#".repeat(filled), " ".repeat(WIDTH - filled),
                100 * Math.min(done, total) / total, done >> 20, total >> 20);
        err.flush();
        drawn = true;
    }

    @Override
    public void close() {
        if (drawn) {
            done = total;
            draw();
            err.println();
            err.flush();
        }
    }
}
