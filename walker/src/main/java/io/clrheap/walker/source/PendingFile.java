package io.clrheap.walker.source;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * An output file being written: under a temporary name beside its final one ({@code .NAME.RANDOM.partial}, hidden,
 * so that a listing never shows it as a finished output), renamed into place atomically by {@link #commit} once it
 * is complete and checked, and removed otherwise — when writing fails ({@link #failed}), when it is closed
 * uncommitted, and when the JVM is stopped by SIGINT or SIGTERM ({@link InProgressFiles}).
 *
 * <pre>{@code
 * try (PendingFile file = PendingFile.beside(target)) {
 *     try {
 *         write(file.path());
 *     } catch (IOException | RuntimeException e) {
 *         throw file.failed(e);    // removed; the message names target
 *     }
 *     file.commit();
 * }
 * }</pre>
 */
public final class PendingFile implements AutoCloseable {

    private final Path target;
    private final Path partial;
    private boolean committed;

    private PendingFile(Path target, Path partial) {
        this.target = target;
        this.partial = partial;
    }

    /** A new empty temporary file beside {@code target} (its folder created if missing), registered for deletion at exit. */
    public static PendingFile beside(Path target) throws IOException {
        Path absolute = target.toAbsolutePath();
        Path folder = absolute.getParent();
        Files.createDirectories(folder);
        // a unique name: two runs writing one target do not collide
        Path partial = Files.createTempFile(folder, "." + absolute.getFileName() + ".", ".partial");
        InProgressFiles.register(partial, target.toString());
        return new PendingFile(target, partial);
    }

    /**
     * Writes {@code target} through {@code body}, which writes the temporary file it is given: renamed into place when
     * {@code body} returns, removed when it throws ({@link IncompleteOutputException} naming {@code target}).
     */
    public static Path write(Path target, Body body) throws IOException {
        try (PendingFile file = beside(target)) {
            try {
                body.writeTo(file.path());
            } catch (IOException | RuntimeException e) {
                throw file.failed(e);
            }
            return file.commit();
        }
    }

    /** What {@link #write} writes the file with. */
    @FunctionalInterface
    public interface Body {
        void writeTo(Path partial) throws IOException;
    }

    /** The temporary file to write. */
    public Path path() {
        return partial;
    }

    /** Where it goes when complete. */
    public Path target() {
        return target;
    }

    /**
     * The file is complete and checked: made {@code rw-r--r--} (as a file made by hand; a temporary one is private)
     * and renamed over {@code target} in one step, so a reader sees the old file or the new one, never a part.
     *
     * @return {@code target}
     */
    public Path commit() throws IOException {
        try {
            readableByAll(partial, "rw-r--r--");
            try {
                Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException | RuntimeException e) {
            throw failed(e);
        }
        committed = true;
        InProgressFiles.unregister(partial);
        return target;
    }

    /**
     * {@code failure} stopped the writing: removes the temporary file and returns what to throw, an
     * {@link IncompleteOutputException} whose one-line message is the failure's and names {@code target}.
     */
    public IncompleteOutputException failed(Throwable failure) {
        IncompleteOutputException e = new IncompleteOutputException(target.toString(), failure);
        InProgressFiles.deleteQuietly(partial, e);
        return e;
    }

    /** Removes the temporary file unless it was committed. */
    @Override
    public void close() {
        if (!committed) {
            try {
                Files.deleteIfExists(partial);
            } catch (IOException e) {
                // nothing better to do: the shutdown hook tries again
                return;
            }
            InProgressFiles.unregister(partial);
        }
    }

    /** {@code permissions} where the file system has POSIX permissions; its defaults elsewhere. */
    static void readableByAll(Path path, String permissions) throws IOException {
        try {
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(permissions));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: its defaults stand
        }
    }
}
