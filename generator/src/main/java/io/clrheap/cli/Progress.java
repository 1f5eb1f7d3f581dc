package io.clrheap.cli;

import io.clrheap.walker.walk.HeapWalker;
import java.io.PrintWriter;

/**
 * A progress line on stderr while a long walk runs: every two seconds, how many of the heap's bytes have been
 * walked. Silent for walks that end before the first report (small heaps), and when output is quiet.
 */
final class Progress implements AutoCloseable {

    static final Progress NONE = new Progress(null, null);
    private static final long PERIOD_MILLIS = 2000;

    private final PrintWriter err;
    private final Thread thread;
    private volatile boolean printed;

    private Progress(PrintWriter err, Thread thread) {
        this.err = err;
        this.thread = thread;
    }

    static Progress start(PrintWriter err, HeapWalker walker) {
        long total = Math.max(1, walker.totalBytes());
        Progress[] self = new Progress[1];
        Thread t = Thread.ofPlatform().daemon().name("clrheap-progress").unstarted(() -> {
            try {
                while (true) {
                    Thread.sleep(PERIOD_MILLIS);
                    long done = walker.walkedBytes();
                    err.printf("clrheap: walked %,d of %,d MiB (%d%%)%n", done >> 20, total >> 20, done * 100 / total);
                    err.flush();
                    self[0].printed = true;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        self[0] = new Progress(err, t);
        t.start();
        return self[0];
    }

    @Override
    public void close() {
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (printed) {
                err.println("clrheap: walk done");
            }
        }
    }
}
