package io.clrheap.capture.ipc;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A connection through a relay process ({@link ProcessEndpoint}): requests go to its stdin, the server's bytes come from
 * its stdout. A process's streams only block, so a thread of its own reads stdout into a queue that {@link #read}
 * waits on until its deadline, and each write runs on a thread of its own that {@link #write} waits for until its
 * deadline (then the relay is ended). A relay that ends with an exit code other than 0, before or while it is used,
 * is a {@link DiagnosticsException} with that code and what it wrote on stderr.
 */
final class ProcessTransport implements IpcTransport {

    /** How long {@link #close} gives the relay to end after its stdin closed, and an ended stdout to the relay's exit. */
    static final Duration EXIT_WAIT = Duration.ofSeconds(5);
    /** how often a read waiting for stdout looks whether the relay has failed */
    private static final Duration POLL = Duration.ofMillis(100);
    /** stdout is read in chunks of up to this many bytes */
    private static final int CHUNK = 1 << 16;
    /** chunks read ahead at most (4 MiB): then the reader waits for {@link #read}, and the relay for the reader */
    private static final int QUEUED = 64;
    /** what is kept of the relay's stderr for messages */
    private static final int STDERR_KEPT = 4096;
    private static final byte[] END = new byte[0];

    private final Process process;
    private final String description;
    private final BlockingQueue<byte[]> chunks = new ArrayBlockingQueue<>(QUEUED);
    private final StringBuffer stderr = new StringBuffer();
    private final Thread stderrReader;
    private ByteBuffer pending = ByteBuffer.allocate(0);
    private boolean ended;
    private volatile boolean closed;

    private ProcessTransport(Process process, String description) {
        this.process = process;
        this.description = description;
        Thread.ofVirtual().name("ipc-relay-stdout-" + process.pid()).start(this::readStdout);
        this.stderrReader = Thread.ofVirtual().name("ipc-relay-stderr-" + process.pid()).start(this::readStderr);
    }

    static ProcessTransport start(ProcessBuilder relay, String description) throws DiagnosticsException {
        relay.redirectInput(ProcessBuilder.Redirect.PIPE).redirectOutput(ProcessBuilder.Redirect.PIPE).redirectError(ProcessBuilder.Redirect.PIPE);
        try {
            return new ProcessTransport(relay.start(), description);
        } catch (IOException e) {
            throw new DiagnosticsException("cannot start " + description + ": " + e.getMessage(), e);
        }
    }

    /** Copies stdout into the queue, then the end marker; a full queue is waited on unless the transport is closed. */
    private void readStdout() {
        try (InputStream in = process.getInputStream()) {
            byte[] buffer = new byte[CHUNK];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (n > 0 && !offer(Arrays.copyOf(buffer, n))) {
                    return;
                }
            }
        } catch (IOException e) {
            // the stream broke: the relay is gone, which the end marker and its exit code say
        }
        offer(END);
    }

    private boolean offer(byte[] chunk) {
        try {
            while (!closed) {
                if (chunks.offer(chunk, 100, TimeUnit.MILLISECONDS)) {
                    return true;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    private void readStderr() {
        try (InputStream err = process.getErrorStream()) {
            byte[] buffer = new byte[1024];
            int n;
            while ((n = err.read(buffer)) >= 0) {
                if (stderr.length() < STDERR_KEPT) {
                    stderr.append(new String(buffer, 0, Math.min(n, STDERR_KEPT - stderr.length()), StandardCharsets.ISO_8859_1));
                }
            }
        } catch (IOException e) {
            // the relay is gone
        }
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public int read(ByteBuffer into, long deadline) throws IOException {
        if (!into.hasRemaining()) {
            return 0;
        }
        while (!pending.hasRemaining()) {
            if (ended) {
                return -1;
            }
            byte[] chunk = next(deadline);
            if (chunk == null) {
                return 0;
            }
            if (chunk == END) {
                ended = true;
                // stdout ends when the relay exits: one that failed (no pipe, a broken copy) says why
                OptionalInt code = exitCode(deadline);
                if (code.isPresent() && code.getAsInt() != 0) {
                    throw failed(code.getAsInt());
                }
                return -1;
            }
            pending = ByteBuffer.wrap(chunk);
        }
        int n = Math.min(into.remaining(), pending.remaining());
        into.put(into.position(), pending, pending.position(), n);
        into.position(into.position() + n);
        pending.position(pending.position() + n);
        return n;
    }

    /**
     * The next chunk of stdout or {@link #END}, waiting until {@code deadline}: null when it passed first. A relay that
     * failed is reported at once, though its stdout has not ended (a process it started may hold it open).
     */
    private byte[] next(long deadline) throws DiagnosticsException {
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                byte[] chunk = chunks.poll(Math.max(0, Math.min(left, POLL.toNanos())), TimeUnit.NANOSECONDS);
                if (chunk != null || left <= 0) {
                    return chunk;
                }
                if (!process.isAlive() && process.exitValue() != 0 && chunks.isEmpty()) {
                    throw failed(process.exitValue());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DiagnosticsException("interrupted while reading from " + description);
        }
    }

    @Override
    public void write(ByteBuffer message, long deadline) throws IOException {
        byte[] bytes = new byte[message.remaining()];
        message.get(bytes);
        OutputStream in = process.getOutputStream();
        FutureTask<Void> task = new FutureTask<>(() -> {
            in.write(bytes);
            in.flush();
            return null;
        });
        Thread.ofVirtual().name("ipc-relay-stdin-" + process.pid()).start(task);
        try {
            task.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            process.destroyForcibly(); // which ends the blocked write
            throw new DiagnosticsException("timed out writing to " + description + " (the relay does not read its stdin): ended it");
        } catch (ExecutionException e) {
            // a broken pipe: the relay ended before it took the request
            OptionalInt code = exitCode(System.nanoTime() + EXIT_WAIT.toNanos());
            if (code.isPresent() && code.getAsInt() != 0) {
                throw failed(code.getAsInt());
            }
            // ended cleanly: the runtime's end closed it, as when it closes a connection before answering (IpcConnection)
            throw code.isPresent() ? new DiagnosticsException("the runtime closed " + description + " before taking the request ("
                    + e.getCause().getMessage() + ")", e.getCause())
                    : new DiagnosticsException("cannot write to " + description + ": " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DiagnosticsException("interrupted while writing to " + description);
        }
    }

    /** The relay's exit code, waiting for it until {@code deadline} ({@link #EXIT_WAIT} at most); empty if it still runs. */
    private OptionalInt exitCode(long deadline) {
        try {
            long wait = Math.min(Math.max(deadline - System.nanoTime(), 0), EXIT_WAIT.toNanos());
            return process.waitFor(wait, TimeUnit.NANOSECONDS) ? OptionalInt.of(process.exitValue()) : OptionalInt.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OptionalInt.empty();
        }
    }

    private DiagnosticsException failed(int code) {
        try {
            stderrReader.join(Duration.ofSeconds(1)); // all of it: the relay has ended
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        String said = stderr.toString().strip();
        return new DiagnosticsException(String.format(Locale.ROOT, "%s ended with exit code %d%s", description, code,
                said.isEmpty() ? " and said nothing" : ": " + said));
    }

    /** Closes the relay's stdin, which ends it (and its connection); ends it by force if it has not ended in {@link #EXIT_WAIT}. */
    @Override
    public void close() throws IOException {
        closed = true;
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // it has ended already
        }
        if (exitCode(System.nanoTime() + EXIT_WAIT.toNanos()).isEmpty()) {
            process.destroyForcibly();
        }
        chunks.clear();
    }
}
