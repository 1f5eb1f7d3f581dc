package io.clrheap.golden.fuzz;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one input of a {@link FuzzTarget} on a worker thread under a time limit and judges the outcome. A run that
 * does not finish in time is a finding; its thread cannot be stopped safely, so it is abandoned (a daemon) and the
 * next run gets a new thread.
 */
final class FuzzRunner implements AutoCloseable {

    /** The most one input may take (issue 9). */
    static final Duration TIME_LIMIT = Duration.ofSeconds(1);

    enum Verdict { PASSED, REFUSED, FAILED }

    /**
     * @param signature the coverage signal: the verdict with what the target returned or the exception type and its
     *                  message with numbers blanked (so that inputs differing only in an address are one signal)
     */
    record Outcome(Verdict verdict, String signature, String detail, Throwable thrown) {
    }

    private final FuzzTarget target;
    private ExecutorService worker = newWorker();

    FuzzRunner(FuzzTarget target) {
        this.target = target;
    }

    private static ExecutorService newWorker() {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "fuzz-worker");
            t.setDaemon(true);
            return t;
        });
    }

    /** Runs {@code input} under {@link #TIME_LIMIT}. */
    Outcome run(byte[] input) {
        return run(input, TIME_LIMIT);
    }

    /** Runs {@code input}; the warm-up run of each seed gets longer (class loading, the first layout views). */
    Outcome run(byte[] input, Duration limit) {
        long started = System.nanoTime();
        Future<String> future = worker.submit(() -> target.run(input));
        try {
            String summary = future.get(limit.toMillis(), TimeUnit.MILLISECONDS);
            return new Outcome(Verdict.PASSED, "passed " + summary, summary, null);
        } catch (TimeoutException e) {
            future.cancel(true);
            worker.shutdownNow();
            worker = newWorker();
            return new Outcome(Verdict.FAILED, "timeout", "took more than " + limit.toMillis() + " ms", null);
        } catch (ExecutionException e) {
            Throwable thrown = e.getCause();
            String why = thrown instanceof Error ? "an Error is never a refusal" : target.refusal(thrown);
            String signature = thrown.getClass().getSimpleName() + ": " + blank(String.valueOf(thrown.getMessage()));
            if (why == null) {
                return new Outcome(Verdict.REFUSED, "refused " + signature, thrown.toString(), thrown);
            }
            long ms = (System.nanoTime() - started) / 1_000_000;
            return new Outcome(Verdict.FAILED, "failed " + signature, why + " (" + ms + " ms): " + thrown, thrown);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while fuzzing", e);
        }
    }

    /** The message with its numbers and file names blanked: the shape of the refusal, not its values. */
    static String blank(String message) {
        return message.replaceAll("0x[0-9a-fA-F]+", "#").replaceAll("[0-9]+", "#").replaceAll("fuzz-[^ :,]*", "FILE");
    }

    @Override
    public void close() {
        worker.shutdownNow();
    }
}
