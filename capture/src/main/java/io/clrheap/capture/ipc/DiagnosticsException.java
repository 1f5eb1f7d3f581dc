package io.clrheap.capture.ipc;

import java.io.IOException;

/** The diagnostics IPC failed: no socket, a refused command (with its HRESULT), a malformed answer or a timeout. */
public final class DiagnosticsException extends IOException {

    public DiagnosticsException(String message) {
        super(message);
    }

    public DiagnosticsException(String message, Throwable cause) {
        super(message, cause);
    }
}
