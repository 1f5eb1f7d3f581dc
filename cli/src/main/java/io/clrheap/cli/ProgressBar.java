package io.clrheap.cli;

import io.clrheap.generator.fixture.FixtureProgress;
import java.io.PrintWriter;
import java.util.Locale;

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
    /** Counts things (fixtures) rather than bytes. */
    private final String unit;
    private final long started = System.nanoTime();
    private long lastDrawn;
    private long done;
    private boolean drawn;

    private ProgressBar(PrintWriter err, String label, long total, String unit) {
        this.err = err;
        this.label = label;
        this.total = total;
        this.unit = unit;
    }

    /** A bar over {@code total} bytes; with a null stream, one that draws nothing. */
    static ProgressBar start(PrintWriter err, String label, long total) {
        return new ProgressBar(err, label, Math.max(1, total), null);
    }

    /** A bar over {@code total} things, e.g. {@code fixtures}; with a null stream, one that draws nothing. */
    static ProgressBar counting(PrintWriter err, String label, long total, String unit) {
        return new ProgressBar(err, label, Math.max(1, total), unit);
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
        err.printf(Locale.ROOT, "\rclrheap: %s [%s%s] %3d%% (%,d of %,d %s)", label, "#".repeat(filled), " ".repeat(WIDTH - filled),
                100 * Math.min(done, total) / total, unit == null ? done >> 20 : done, unit == null ? total >> 20 : total, unit == null ? "MiB" : unit);
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
