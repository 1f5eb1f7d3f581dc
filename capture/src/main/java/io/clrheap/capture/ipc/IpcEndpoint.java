package io.clrheap.capture.ipc;

/**
 * Where a runtime's diagnostics server can be reached: each {@link #connect()} opens a new connection (the protocol
 * takes one command per connection, docs/ipc-protocol.md section 1).
 */
public interface IpcEndpoint {

    /** Opens a new connection. */
    IpcTransport connect() throws DiagnosticsException;

    /** What the endpoint is, for messages: the socket's path, or the relay's command. */
    String describe();
}
