package io.clrheap.capture.ipc;

import java.nio.file.Path;

/** A runtime's diagnostics socket on Linux, {@code $TMPDIR/dotnet-diagnostic-PID-KEY-socket} ({@link DiagnosticsClient#findSocket}). */
public record UnixSocketEndpoint(Path socket) implements IpcEndpoint {

    @Override
    public IpcTransport connect() throws DiagnosticsException {
        return UnixSocketTransport.open(socket);
    }

    @Override
    public String describe() {
        return socket.toString();
    }
}
