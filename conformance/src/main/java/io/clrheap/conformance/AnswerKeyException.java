package io.clrheap.conformance;

import java.io.IOException;
import java.nio.file.Path;

/**
 * An answer key file that cannot be read or is not what {@code clrheap generate} writes: the suite is broken, not the
 * walker ({@code clrheap conform} exits with 3). The message names the file and, when it can, the line.
 */
public final class AnswerKeyException extends IOException {

    private final transient Path file;

    public AnswerKeyException(Path file, String what) {
        super(file + ": " + what);
        this.file = file;
    }

    public AnswerKeyException(Path file, String what, Throwable cause) {
        super(file + ": " + what, cause);
        this.file = file;
    }

    /** The answer key file. */
    public Path file() {
        return file;
    }
}
