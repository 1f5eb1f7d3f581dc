package io.clrheap.walker.source.elf;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The cache folder's decompressed cores: one entry per {@code .xz} content, named by the SHA-256 of the compressed bytes
 * ({@code <64 hex digits>.core}) — two copies of one core share an entry, a changed file never reuses a stale one —
 * together at most {@code maxBytes}. An entry's modification time is when it was last used: reusing one touches it, and
 * making room evicts the oldest first. Only complete entries count and are evicted: a file being written (by this
 * process or another) has a temporary {@code .partial} name, and the entry being opened is never evicted. Another
 * process may have an evicted entry mapped; on Linux the mapping stays readable after the file is deleted (unlink(2)).
 */
final class CachedCores {

    private static final Pattern ENTRY = Pattern.compile("[0-9a-f]{64}\\.core");
    private static final int BUFFER = 1 << 16;

    private final Path folder;
    private final long maxBytes;

    CachedCores(Path folder, long maxBytes) {
        this.folder = folder;
        this.maxBytes = maxBytes;
    }

    /** The key of {@code xz}'s bytes: their SHA-256 in hex (the compressed file is far smaller than the core). */
    static String key(Path xz) throws IOException {
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256 (MessageDigest spec)", e);
        }
        try (InputStream in = new DigestInputStream(Files.newInputStream(xz), sha256)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return HexFormat.of().formatHex(sha256.digest());
    }

    /** The entry of content {@code key}. */
    Path entryFor(String key) {
        return folder.resolve(key + ".core");
    }

    /**
     * Why nothing can be written into the folder (created now when missing), for a note; null when it can be.
     */
    String whyNotWritable() {
        try {
            Files.createDirectories(folder);
        } catch (IOException | UnsupportedOperationException e) {
            return folder + " cannot be created (" + e + ")";
        }
        return Files.isWritable(folder) ? null : folder + " cannot be written";
    }

    /** Whether {@code entry} is complete ({@code size} bytes); it is then touched as just used. */
    boolean reuse(Path entry, long size) throws IOException {
        try {
            BasicFileAttributes attributes = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!attributes.isRegularFile() || attributes.size() != size) {
                return false; // not what an atomic rename of a complete file left: written again over it
            }
            Files.setLastModifiedTime(entry, FileTime.from(Instant.now()));
            return true;
        } catch (NoSuchFileException e) {
            return false; // never made, or evicted by another process meanwhile
        }
    }

    /**
     * Evicts the least recently used entries, never {@code keep}, until {@code bytes} more fit within the bound.
     */
    void makeRoom(long bytes, Path keep) throws IOException {
        List<Entry> entries = entries(keep);
        long total = entries.stream().mapToLong(Entry::size).sum();
        for (Entry e : entries) {
            if (total + bytes <= maxBytes) {
                return;
            }
            try {
                Files.deleteIfExists(e.file());
            } catch (IOException ignored) {
                continue; // another process's (or a read-only) entry: it still counts
            }
            total -= e.size();
        }
    }

    /** Every complete entry but {@code keep}, least recently used first. */
    private List<Entry> entries(Path keep) throws IOException {
        List<Entry> entries = new ArrayList<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                if (!ENTRY.matcher(file.getFileName().toString()).matches() || file.equals(keep)) {
                    continue;
                }
                try {
                    BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                    if (a.isRegularFile()) {
                        entries.add(new Entry(file, a.size(), a.lastModifiedTime()));
                    }
                } catch (NoSuchFileException gone) {
                    // evicted by another process meanwhile
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        entries.sort(Comparator.comparing(Entry::used).thenComparing(Entry::file));
        return entries;
    }

    /** A complete entry, its size and when it was last used. */
    private record Entry(Path file, long size, FileTime used) {
    }
}
