package io.clrheap.capture.ipc;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * One open byte stream to a runtime's diagnostics server, carrying one IPC connection (docs/ipc-protocol.md section
 * 1): a Unix domain socket on Linux ({@link UnixSocketEndpoint}), or a relay process's stdin and stdout
 * ({@link ProcessEndpoint}). Every read and write waits at most until a deadline ({@link System#nanoTime()} clock).
 */
public interface IpcTransport extends AutoCloseable {

    /**
     * Reads what has come into {@code into}, waiting for it until {@code deadline}: the bytes read, 0 when the deadline
     * passed first, -1 when the stream ended.
     *
     * @throws DiagnosticsException when the stream broke (a relay that failed: its exit code and what it said)
     */
    int read(ByteBuffer into, long deadline) throws IOException;

    /** Writes all of {@code message}, or fails with a {@link DiagnosticsException} once {@code deadline} passed. */
    void write(ByteBuffer message, long deadline) throws IOException;

    /** What the stream goes to, for messages: the socket's path, or the relay and the pipe it opens. */
    String describe();

    @Override
    void close() throws IOException;
}
