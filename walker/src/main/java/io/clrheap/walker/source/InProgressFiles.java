package io.clrheap.walker.source;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Files being written that are of no use unfinished — an {@code .xz} core's partial cache, a bundle's extraction
 * file — so that a JVM stopped by SIGINT or SIGTERM (or {@link System#exit}) deletes them on its way out instead of
 * leaving gigabytes behind. A writer {@link #register registers} a file when it creates it and
 * {@link #unregister unregisters} it once it is complete (renamed into place) or deleted. SIGKILL runs no hook: a
 * file it leaves is still under its temporary name, so it is never taken for a complete one.
 */
public final class InProgressFiles {

    private static final Set<Path> FILES = ConcurrentHashMap.newKeySet();
    private static boolean hooked;

    private InProgressFiles() {
    }

    /** {@code file} is being written: delete it if the JVM exits before {@link #unregister}. */
    public static void register(Path file) {
        installHook();
        FILES.add(file.toAbsolutePath());
    }

    /** {@code file} is complete or gone: leave it alone at exit. */
    public static void unregister(Path file) {
        FILES.remove(file.toAbsolutePath());
    }

    /** Whether {@code file} is registered (for tests). */
    public static boolean isRegistered(Path file) {
        return FILES.contains(file.toAbsolutePath());
    }

    /** Deletes {@code file} if it exists and unregisters it; a failure to delete is added to {@code failure}. */
    public static void deleteQuietly(Path file, Throwable failure) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
        unregister(file);
    }

    private static synchronized void installHook() {
        if (hooked) {
            return;
        }
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(InProgressFiles::deleteAll, "clrheap-delete-in-progress-files"));
        } catch (IllegalStateException shuttingDown) {
            // the JVM is already exiting: nothing to install; the writer's own failure path deletes the file
        }
        hooked = true;
    }

    private static void deleteAll() {
        for (Path file : FILES) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException | RuntimeException e) {
                // the JVM is exiting: nothing better to do than to try the others
            }
        }
    }
}
