package io.clrheap.cli;

import io.clrheap.layout.LayoutException;
import io.clrheap.memory.MissingMemoryException;
import picocli.CommandLine;

/**
 * Turns an exception from a command into one line on stderr and exit code 1: what went wrong and where, never
 * a stack trace (set {@code CLRHEAP_DEBUG=1} to see one).
 */
final class ErrorReporter implements CommandLine.IExecutionExceptionHandler {

    @Override
    public int handleExecutionException(Exception e, CommandLine cli, CommandLine.ParseResult parseResult) {
        String kind = switch (e) {
            case LayoutException le -> "layout";
            case MissingMemoryException me -> "memory";
            default -> "error";
        };
        String command = cli.getCommandSpec().qualifiedName();
        String message = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        cli.getErr().println(command + ": " + kind + ": " + message);
        if (System.getenv("CLRHEAP_DEBUG") != null) {
            e.printStackTrace(cli.getErr());
        } else {
            cli.getErr().println("(set CLRHEAP_DEBUG=1 to see where it happened)");
        }
        return 1;
    }
}
