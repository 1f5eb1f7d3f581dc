package io.clrheap.cli;

import io.clrheap.walker.walk.HeapWalker;
import java.io.PrintWriter;

/**
 * A progress bar on stderr while a long walk runs ({@link ProgressBar}: how many of the heap's bytes have been walked,
 * redrawn twice a second once the walk has taken more than a second). Silent for walks that end sooner (small heaps),
 * and when output is quiet.
 */
final class Progress implements AutoCloseable {

    static final Progress NONE = new Progress(null, null);
    private static final long PERIOD_MILLIS = 250;

    private final Thread thread;
    private final ProgressBar bar;
    private boolean closed;

    private Progress(Thread thread, ProgressBar bar) {
        this.thread = thread;
        this.bar = bar;
    }

    static Progress start(PrintWriter err, HeapWalker walker) {
        ProgressBar bar = ProgressBar.start(err, "walking", walker.totalBytes());
        Thread t = Thread.ofPlatform().daemon().name("clrheap-progress").unstarted(() -> {
            try {
                while (true) {
                    Thread.sleep(PERIOD_MILLIS);
                    bar.accept(walker.walkedBytes());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        t.start();
        return new Progress(t, bar);
    }

    /** Ends the bar (at 100 %, its line ended, when it was drawn); again, does nothing: call it before printing what follows the walk. */
    @Override
    public void close() {
        if (thread != null && !closed) {
            closed = true;
            thread.interrupt();
            try {
                thread.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            bar.close();
        }
    }
}
