package io.clrheap.capture.ipc;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.time.Duration;

/**
 * One connection to a runtime's diagnostics server over an {@link IpcTransport}: what the commands need on top of the
 * transport's reads and writes (whole answers, a trace stream copied); every wait ends at a deadline.
 */
final class IpcConnection implements AutoCloseable {

    private final IpcTransport transport;

    private IpcConnection(IpcTransport transport) {
        this.transport = transport;
    }

    static IpcConnection open(IpcEndpoint endpoint) throws DiagnosticsException {
        return new IpcConnection(endpoint.connect());
    }

    /** What the connection goes to, for messages. */
    String describe() {
        return transport.describe();
    }

    void write(ByteBuffer message, long deadline) throws IOException {
        transport.write(message, deadline);
    }

    /** Reads what is there, waiting until the deadline: the bytes read, 0 when the deadline passed, -1 at the end of the stream. */
    int read(ByteBuffer into, long deadline) throws IOException {
        return transport.read(into, deadline);
    }

    /** Fills the buffer, or fails naming what was expected when the stream ends or the deadline passes. */
    void readFully(ByteBuffer into, long deadline, Duration timeout, String what) throws IOException {
        while (into.hasRemaining()) {
            int n = read(into, deadline);
            if (n < 0) {
                throw new DiagnosticsException("the runtime closed " + describe() + " before sending " + what);
            }
            if (n == 0) {
                throw new DiagnosticsException("no " + what + " from " + describe() + " within " + timeout.toSeconds() + " s");
            }
        }
    }

    /**
     * Copies the stream to {@code out} until no byte has come for {@code idle} (once a first byte has come), until
     * {@code max} has passed, or until the stream ends; returns the bytes copied and whether the stream ended.
     */
    CopyResult copy(OutputStream out, Duration idle, Duration firstByte, Duration max) throws IOException {
        return copy(out, idle, firstByte, max, () -> false);
    }

    /** As {@link #copy(OutputStream, Duration, Duration, Duration)}, and also stops (checked at least every 200 ms) once {@code enough} says so. */
    CopyResult copy(OutputStream out, Duration idle, Duration firstByte, Duration max, java.util.function.BooleanSupplier enough) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(1 << 16);
        long start = System.nanoTime();
        long end = start + max.toNanos();
        long total = 0;
        long lastData = start;
        while (true) {
            long now = System.nanoTime();
            long idleDeadline = lastData + (total == 0 ? firstByte : idle).toNanos();
            long deadline = Math.min(end, idleDeadline);
            if (now >= deadline || total > 0 && enough.getAsBoolean()) {
                return new CopyResult(total, false, now >= end);
            }
            buf.clear();
            int n = read(buf, Math.min(deadline, now + 200_000_000L));
            if (n < 0) {
                return new CopyResult(total, true, false);
            }
            if (n > 0) {
                out.write(buf.array(), 0, n);
                total += n;
                lastData = System.nanoTime();
            }
        }
    }

    record CopyResult(long bytes, boolean ended, boolean hitMaximum) {
    }

    @Override
    public void close() throws IOException {
        transport.close();
    }
}
