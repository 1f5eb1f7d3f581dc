package io.clrheap.golden.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The readers open paths, so each input is written to a file of its own: a fresh name every time, because a run
 * abandoned at its time limit may still have the previous file mapped (truncating a mapped file under a reader
 * would fault it).
 */
final class InputFiles {

    private static final AtomicLong COUNTER = new AtomicLong();
    private static final Path DIR;

    static {
        try {
            DIR = Files.createTempDirectory("clrheap-fuzz-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private InputFiles() {
    }

    /** Writes {@code input} to {@code fuzz-input-N.SUFFIX} (the name the refusals must mention). */
    static Path write(byte[] input, String suffix) throws IOException {
        Path file = DIR.resolve("fuzz-input-" + COUNTER.incrementAndGet() + suffix);
        Files.write(file, input);
        file.toFile().deleteOnExit();
        return file;
    }

    /** Null when the message names {@code file}, else why the refusal does not count. */
    static String namesFile(Throwable thrown, Path file) {
        String message = thrown.getMessage();
        return message != null && message.contains(file.getFileName().toString()) ? null
                : "a " + thrown.getClass().getSimpleName() + " whose message does not name the file";
    }
}
