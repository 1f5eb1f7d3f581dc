package io.clrheap.walker.source;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Outputs being written into a temporary folder ({@code .NAME.RANDOM.partial/}, hidden, in the folder they go to,
 * so that moving them is a rename within one file system) and moved into place once complete and checked; removed
 * otherwise — when writing fails ({@link #failed}), when it is closed uncommitted, and when the JVM is stopped by
 * SIGINT or SIGTERM ({@link InProgressFiles}, which names the outputs it was to become). Two uses:
 * <ul>
 * <li>{@link #beside}: the folder is the output (an answer key, a capture) and {@link #commit} renames it into place;
 * <li>{@link #in}: a set of outputs (a fixture's core, minidump, bundle and answer key) is written as
 * {@link #entry entries} of the folder and {@link #commitEntries} moves each into the destination.
 * </ul>
 */
public final class PendingFolder implements AutoCloseable {

    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

    private final Path folder;
    /** {@link #beside}: the folder's final name; {@link #in}: null. */
    private final Path target;
    /** {@link #in}: where the entries go. */
    private final Path destination;
    private final Map<String, Path> entries = new LinkedHashMap<>();
    private boolean committed;

    private PendingFolder(Path folder, Path target, Path destination) {
        this.folder = folder;
        this.target = target;
        this.destination = destination;
    }

    /** A new empty temporary folder beside {@code target} (its parent created if missing) that {@link #commit} makes {@code target}. */
    public static PendingFolder beside(Path target) throws IOException {
        Path absolute = target.toAbsolutePath();
        Path parent = Files.createDirectories(absolute.getParent());
        Path folder = createHidden(parent, absolute.getFileName().toString());
        InProgressFiles.register(folder, target + "/");
        return new PendingFolder(folder, target, null);
    }

    /**
     * A new empty temporary folder in {@code destination} (created if missing) for outputs that are to be moved into
     * {@code destination} one by one ({@link #commitEntries}); {@code name} names the temporary folder.
     */
    public static PendingFolder in(Path destination, String name) throws IOException {
        Path absolute = destination.toAbsolutePath();
        Files.createDirectories(absolute);
        PendingFolder pending = new PendingFolder(createHidden(absolute, name), null, destination);
        pending.register();
        return pending;
    }

    /** Where the entries of an {@link #in} folder go (null for a {@link #beside} one). */
    public Path destination() {
        return destination;
    }

    /** The temporary folder. */
    public Path path() {
        return folder;
    }

    /**
     * Where to write the output {@code name} (a file or a folder) of an {@link #in} folder; from now on a stopped JVM's
     * message names it.
     */
    public Path entry(String name) {
        if (destination == null) {
            throw new IllegalStateException("entries are of a folder made with PendingFolder.in, and " + folder + " becomes " + target);
        }
        Path entry = folder.resolve(name);
        entries.put(name, entry);
        register();
        return entry;
    }

    /**
     * The folder is complete and checked: made {@code rwxr-xr-x} (as a folder made by hand) and renamed to the
     * target of {@link #beside}, replacing an old one (which steps aside first: a folder cannot replace a folder in one
     * rename).
     *
     * @return the target
     */
    public Path commit() throws IOException {
        if (target == null) {
            throw new IllegalStateException(folder + " holds entries to move into " + destination + ": commitEntries()");
        }
        try {
            PendingFile.readableByAll(folder, "rwxr-xr-x");
            moveReplacing(folder, target);
        } catch (IOException | RuntimeException e) {
            throw failed(e);
        }
        committed = true;
        InProgressFiles.unregister(folder);
        return target;
    }

    /**
     * The entries are complete and checked: each moved into the destination in one rename, replacing what is there,
     * in the order they were made; the temporary folder is removed.
     *
     * @return where they are now, in that order
     */
    public List<Path> commitEntries() throws IOException {
        if (destination == null) {
            throw new IllegalStateException(folder + " becomes " + target + ": commit()");
        }
        List<Path> moved = new ArrayList<>();
        try {
            // a folder in the way of a file is the user's, not an old output: refused before anything moves
            for (Map.Entry<String, Path> e : entries.entrySet()) {
                Path to = destination.resolve(e.getKey());
                if (Files.isRegularFile(e.getValue(), LinkOption.NOFOLLOW_LINKS) && Files.isDirectory(to, LinkOption.NOFOLLOW_LINKS)) {
                    throw new java.nio.file.FileAlreadyExistsException(to.toString(), null, "a folder is in the way");
                }
            }
            for (Map.Entry<String, Path> e : entries.entrySet()) {
                if (!Files.exists(e.getValue(), LinkOption.NOFOLLOW_LINKS)) {
                    continue; // named but never written (a step that writes nothing)
                }
                Path to = destination.resolve(e.getKey());
                moveReplacing(e.getValue(), to);
                moved.add(to);
            }
            FileTrees.deleteTree(folder);
        } catch (IOException | RuntimeException e) {
            throw failed(e);
        }
        committed = true;
        InProgressFiles.unregister(folder);
        return moved;
    }

    /**
     * {@code failure} stopped the writing: removes the temporary folder with everything in it and returns what to
     * throw, an {@link IncompleteOutputException} whose one-line message is the failure's and names the outputs.
     */
    public IncompleteOutputException failed(Throwable failure) {
        IncompleteOutputException e = new IncompleteOutputException(shown(), failure);
        InProgressFiles.deleteQuietly(folder, e);
        return e;
    }

    /** Removes the temporary folder unless it was committed. */
    @Override
    public void close() {
        if (!committed) {
            try {
                FileTrees.deleteTree(folder);
            } catch (IOException e) {
                // nothing better to do: the shutdown hook tries again
                return;
            }
            InProgressFiles.unregister(folder);
        }
    }

    /** What the outputs are called: the target's name, or the entries' final names. */
    private String shown() {
        if (target != null) {
            return target + "/";
        }
        if (entries.isEmpty()) {
            return destination.resolve(folder.getFileName()) + "/";
        }
        List<String> names = new ArrayList<>();
        for (Map.Entry<String, Path> e : entries.entrySet()) {
            names.add(destination.resolve(e.getKey()) + (Files.isDirectory(e.getValue()) ? "/" : ""));
        }
        return String.join(", ", names);
    }

    private void register() {
        InProgressFiles.register(folder, shown());
    }

    /** A new folder {@code .NAME.RANDOM.partial} in {@code parent}, private to this user until committed. */
    private static Path createHidden(Path parent, String name) throws IOException {
        while (true) {
            Path folder = parent.resolve("." + name + "." + Long.toUnsignedString(RANDOM.nextLong(), 36) + ".partial");
            try {
                return Files.createDirectory(folder, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } catch (UnsupportedOperationException e) {
                return Files.createDirectory(folder); // not a POSIX file system
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // another run's: pick another name
            }
        }
    }

    /** Renames {@code from} to {@code to}, replacing a file in one step, a folder by a folder in two (the old one stepping aside, then deleted). */
    private static void moveReplacing(Path from, Path to) throws IOException {
        if (Files.isDirectory(from, LinkOption.NOFOLLOW_LINKS) && Files.isDirectory(to, LinkOption.NOFOLLOW_LINKS)) {
            Path aside = Files.createTempDirectory(to.toAbsolutePath().getParent(), "." + to.getFileName() + ".old.");
            InProgressFiles.register(aside, to + " (the old one)");
            Files.move(to, aside.resolve("old"), StandardCopyOption.ATOMIC_MOVE);
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
            FileTrees.deleteTree(aside);
            InProgressFiles.unregister(aside);
            return;
        }
        try {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
