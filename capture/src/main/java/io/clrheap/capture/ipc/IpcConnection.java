package io.clrheap.capture.ipc;

import java.io.IOException;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;

/** One connection to a runtime's diagnostics socket; every read and write waits at most until a deadline. */
final class IpcConnection implements AutoCloseable {

    private final Path socket;
    private final SocketChannel channel;
    private final Selector selector;

    private IpcConnection(Path socket, SocketChannel channel, Selector selector) {
        this.socket = socket;
        this.channel = channel;
        this.selector = selector;
    }

    static IpcConnection open(Path socket) throws DiagnosticsException {
        SocketChannel ch = null;
        try {
            ch = SocketChannel.open(StandardProtocolFamily.UNIX);
            ch.connect(UnixDomainSocketAddress.of(socket));
            ch.configureBlocking(false);
            Selector sel = Selector.open();
            ch.register(sel, SelectionKey.OP_READ);
            return new IpcConnection(socket, ch, sel);
        } catch (IOException e) {
            try {
                if (ch != null) {
                    ch.close();
                }
            } catch (IOException ignored) {
                // the connect failure is what matters
            }
            throw new DiagnosticsException("cannot connect to the diagnostics socket " + socket + ": " + e.getMessage(), e);
        }
    }

    Path socket() {
        return socket;
    }

    void write(ByteBuffer message, long deadline) throws IOException {
        while (message.hasRemaining()) {
            if (channel.write(message) == 0) {
                if (System.nanoTime() > deadline) {
                    throw new DiagnosticsException("timed out writing to " + socket);
                }
                Thread.onSpinWait();
                sleepBriefly();
            }
        }
    }

    private static void sleepBriefly() throws DiagnosticsException {
        try {
            Thread.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DiagnosticsException("interrupted");
        }
    }

    /** Reads what is there, waiting until the deadline: the bytes read, 0 when the deadline passed, -1 at the end of the stream. */
    int read(ByteBuffer into, long deadline) throws IOException {
        while (true) {
            int n = channel.read(into);
            if (n != 0) {
                return n;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return 0;
            }
            selector.select(Math.max(1, left / 1_000_000));
            selector.selectedKeys().clear();
        }
    }

    /** Fills the buffer, or fails naming what was expected when the stream ends or the deadline passes. */
    void readFully(ByteBuffer into, long deadline, Duration timeout, String what) throws IOException {
        while (into.hasRemaining()) {
            int n = read(into, deadline);
            if (n < 0) {
                throw new DiagnosticsException("the runtime closed " + socket + " before sending " + what);
            }
            if (n == 0) {
                throw new DiagnosticsException("no " + what + " from " + socket + " within " + timeout.toSeconds() + " s");
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
        try {
            selector.close();
        } finally {
            channel.close();
        }
    }
}
