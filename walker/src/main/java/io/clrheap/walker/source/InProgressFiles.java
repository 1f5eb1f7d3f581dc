package io.clrheap.walker.source;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Files and folders being written that are of no use unfinished — a fixture's files under their temporary names
 * ({@link PendingFile}, {@link PendingFolder}), an {@code .xz} core's partial cache, a bundle's extraction file — so
 * that a JVM stopped by SIGINT or SIGTERM (or {@link System#exit}) deletes them on its way out instead of leaving
 * gigabytes behind, and says so in one line on stderr
 * ({@code clrheap: interrupted: removed the incomplete big/large-net8-server.core}). A writer {@link #register
 * registers} a file when it creates it and {@link #unregister unregisters} it once it is complete (renamed into place)
 * or deleted. The one shutdown hook of clrheap that deletes files. SIGKILL runs no hook: a file it leaves is still
 * under its temporary name, so it is never taken for a complete one.
 */
public final class InProgressFiles {

    /** Each registered file or folder and what the message calls it (the output it will become). */
    private static final Map<Path, String> FILES = new ConcurrentHashMap<>();
    private static boolean hooked;

    private InProgressFiles() {
    }

    /** {@code file} is being written: delete it if the JVM exits before {@link #unregister}. */
    public static void register(Path file) {
        register(file, file.toString());
    }

    /**
     * {@code file} (or folder, deleted with everything in it) is being written as {@code shown}, the name the user
     * knows it by (its final name, not the temporary one): delete it if the JVM exits before {@link #unregister}.
     * Registering it again changes what it is called.
     */
    public static void register(Path file, String shown) {
        installHook();
        FILES.put(file.toAbsolutePath(), shown);
    }

    /** {@code file} is complete or gone: leave it alone at exit. */
    public static void unregister(Path file) {
        FILES.remove(file.toAbsolutePath());
    }

    /** Whether {@code file} is registered (for tests). */
    public static boolean isRegistered(Path file) {
        return FILES.containsKey(file.toAbsolutePath());
    }

    /** Deletes {@code file} (a folder with everything in it) if it exists and unregisters it; a failure to delete is added to {@code failure}. */
    public static void deleteQuietly(Path file, Throwable failure) {
        if (file == null) {
            return;
        }
        try {
            FileTrees.deleteTree(file);
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
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteAll(System.err), "clrheap-delete-in-progress-files"));
        } catch (IllegalStateException shuttingDown) {
            // the JVM is already exiting: nothing to install; the writer's own failure path deletes the file
        }
        hooked = true;
    }

    /** Deletes every registered file and folder and names, in one line on {@code err}, those that were there. */
    static void deleteAll(PrintStream err) {
        List<String> removed = new ArrayList<>();
        for (Map.Entry<Path, String> e : FILES.entrySet()) {
            Path file = e.getKey();
            if (FILES.keySet().stream().anyMatch(folder -> !folder.equals(file) && file.startsWith(folder))) {
                continue; // inside a registered folder (a fixture's core in its staging folder): removed, and named, with it
            }
            if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            // the writer's thread still runs while the hook does and may add a file to a folder being deleted: try again
            for (int attempt = 0; attempt < 3 && Files.exists(file, LinkOption.NOFOLLOW_LINKS); attempt++) {
                try {
                    FileTrees.deleteTree(file);
                } catch (IOException | RuntimeException ignored) {
                    // the JVM is exiting: nothing better to do than to try again, then the others
                }
            }
            removed.add(e.getValue());
        }
        if (!removed.isEmpty()) {
            err.println("clrheap: interrupted: removed the incomplete " + String.join(", ", removed));
            err.flush();
        }
    }
}
