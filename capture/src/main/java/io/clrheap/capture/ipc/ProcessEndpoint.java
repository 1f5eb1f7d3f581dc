package io.clrheap.capture.ipc;

import java.io.File;
import java.util.List;
import java.util.Map;

/**
 * A runtime's diagnostics server reached through a relay process: each connection starts {@code command}, which opens
 * one connection to the server and copies bytes both ways between it and its own stdin and stdout, unchanged, until
 * either side ends (the Wine tests' {@code PipeRelay.exe PID}, which opens a Windows runtime's
 * {@code \\.\pipe\dotnet-diagnostic-PID}). The relay ends when its stdin is closed; its stdout ends when the server
 * closes the connection; what it writes on stderr is kept for messages.
 *
 * @param command the relay's command line
 * @param environment the relay's whole environment
 * @param directory the relay's working directory, or null for the JVM's
 */
public record ProcessEndpoint(List<String> command, Map<String, String> environment, File directory) implements IpcEndpoint {

    public ProcessEndpoint {
        command = List.copyOf(command);
        environment = Map.copyOf(environment);
        if (command.isEmpty()) {
            throw new IllegalArgumentException("a relay needs a command");
        }
    }

    /** The command, environment and working directory of {@code relay}, as they are now. */
    public static ProcessEndpoint of(ProcessBuilder relay) {
        return new ProcessEndpoint(relay.command(), relay.environment(), relay.directory());
    }

    @Override
    public IpcTransport connect() throws DiagnosticsException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory);
        builder.environment().clear();
        builder.environment().putAll(environment);
        return ProcessTransport.start(builder, describe());
    }

    @Override
    public String describe() {
        return "the relay " + String.join(" ", command);
    }
}
