package io.clrheap.cli;

import io.clrheap.walker.DumpSession;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.OpenOptions;
import io.clrheap.walker.runtime.TargetException;
import io.clrheap.walker.source.DumpFormatException;
import io.clrheap.walker.source.minidump.MinidumpFormatException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * How a command opens its DUMP argument: through the front door ({@link Dumps#open}), saying on stderr why a file
 * cannot be opened (the format error with its offset, the runtime that is missing or unknown, the I/O error) and
 * returning exit code 3 then.
 */
final class DumpOpener {

    /** What a command does with the opened dump; returns its exit code. */
    @FunctionalInterface
    interface Use {
        int with(DumpSession session) throws IOException, InterruptedException;
    }

    private DumpOpener() {
    }

    static int open(String command, Path dump, OpenOptions options, PrintWriter err, Use use) throws IOException, InterruptedException {
        try (DumpSession session = Dumps.open(dump, options)) {
            return use.with(session);
        } catch (TargetException e) {
            err.println("clrheap " + command + ": " + dump + ": " + e.getMessage());
            return WalkCommand.EXIT_CANNOT_OPEN;
        } catch (DumpFormatException | MinidumpFormatException e) {
            err.println("clrheap " + command + ": " + e.getMessage());
            return WalkCommand.EXIT_CANNOT_OPEN;
        } catch (IOException e) {
            err.println("clrheap " + command + ": cannot open " + dump + ": " + e.getMessage());
            return WalkCommand.EXIT_CANNOT_OPEN;
        }
    }
}
