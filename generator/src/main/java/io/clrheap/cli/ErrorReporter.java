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
            case IllegalArgumentException ie -> "usage";
            default -> "error";
        };
        cli.getErr().println("clrheap " + cli.getCommandName() + ": " + kind + ": " + e.getMessage());
        if (System.getenv("CLRHEAP_DEBUG") != null) {
            e.printStackTrace(cli.getErr());
        }
        return e instanceof IllegalArgumentException ? 2 : 1;
    }
}
