package io.clrheap.walker.source.elf;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.function.Consumer;
import org.tukaani.xz.SeekableFileInputStream;
import org.tukaani.xz.SeekableXZInputStream;
import org.tukaani.xz.XZIOException;
import org.tukaani.xz.XZInputStream;

/**
 * Decompresses an {@code .xz} core once, by streaming, into a cache file that later opens reuse: beside the
 * {@code .xz} as {@code <name without .xz>.decompressed} when that directory is writable, else in
 * {@code <tempRoot>/<sha-256 of path, size and mtime>.core}. A cache file is written under a temporary name and
 * renamed atomically, so one that exists is complete; it is reused when its size is the uncompressed size the
 * {@code .xz} index records and it is not older than the {@code .xz}.
 */
final class XzCache {

    static final String SUFFIX = ".xz";
    static final String BESIDE_SUFFIX = ".decompressed";
    static final String TEMP_SUFFIX = ".core";

    /**
     * The most memory the xz decoder may use, in KiB: xz's -9 preset needs a 64 MiB dictionary (xz(1), "Memory
     * usage"); a header that asks for more is corrupt or hostile and must not exhaust the heap.
     */
    private static final int MEMORY_LIMIT_KIB = 256 * 1024;
    private static final int BUFFER = 1 << 20;

    private final Path tempRoot;

    XzCache(Path tempRoot) {
        this.tempRoot = tempRoot;
    }

    /** The cache used by {@link ElfCore#open}: {@code java.io.tmpdir/clrheap-cache}. */
    static XzCache inTempDir() {
        return new XzCache(Path.of(System.getProperty("java.io.tmpdir"), "clrheap-cache"));
    }

    static boolean isXz(Path file) {
        Path name = file.getFileName();
        return name != null && name.toString().endsWith(SUFFIX) && name.toString().length() > SUFFIX.length();
    }

    /** The decompressed copy of {@code xz}, made now if no complete, fresh one exists. */
    Path decompressed(Path xz, Consumer<String> notes) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(xz, BasicFileAttributes.class);
        long expectedSize = uncompressedSize(xz);
        boolean besideWritable = Files.isWritable(xz.toAbsolutePath().getParent());
        Path cache = cacheFile(xz, attributes, besideWritable);
        if (isFresh(cache, expectedSize, attributes.lastModifiedTime())) {
            return cache;
        }
        try {
            decompress(xz, cache, expectedSize, attributes.lastModifiedTime(), notes);
        } catch (AccessDeniedException e) {
            if (!besideWritable) {
                throw e;
            }
            // the directory looked writable but is not (a read-only mount, an ACL): fall back to the temp dir
            cache = cacheFile(xz, attributes, false);
            if (!isFresh(cache, expectedSize, attributes.lastModifiedTime())) {
                decompress(xz, cache, expectedSize, attributes.lastModifiedTime(), notes);
            }
        }
        return cache;
    }

    /** Where the cache of {@code xz} lives. */
    Path cacheFile(Path xz, BasicFileAttributes attributes, boolean besideWritable) {
        if (besideWritable) {
            String name = xz.getFileName().toString();
            return xz.resolveSibling(name.substring(0, name.length() - SUFFIX.length()) + BESIDE_SUFFIX);
        }
        String key = xz.toAbsolutePath().normalize() + "\0" + attributes.size() + "\0"
                + attributes.lastModifiedTime().toMillis();
        return tempRoot.resolve(sha256(key) + TEMP_SUFFIX);
    }

    private static boolean isFresh(Path cache, long expectedSize, FileTime xzModified) throws IOException {
        if (!Files.isRegularFile(cache)) {
            return false;
        }
        BasicFileAttributes attributes = Files.readAttributes(cache, BasicFileAttributes.class);
        return attributes.size() == expectedSize && attributes.lastModifiedTime().compareTo(xzModified) >= 0;
    }

    /** The uncompressed size recorded in the xz index (read from the end of the file; no decompression). */
    private static long uncompressedSize(Path xz) throws IOException {
        try (SeekableXZInputStream in = new SeekableXZInputStream(new SeekableFileInputStream(xz.toFile()),
                MEMORY_LIMIT_KIB)) {
            return in.length();
        } catch (XZIOException e) {
            throw new DumpFormatException(String.format(
                    "%s: not a valid xz file: %s (in its index, at the end of the file, file offset 0x%x)",
                    xz, e.getMessage(), Files.size(xz)), e);
        }
    }

    private static void decompress(Path xz, Path cache, long expectedSize, FileTime xzModified, Consumer<String> notes)
            throws IOException {
        Path dir = cache.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        long usable = Files.getFileStore(dir).getUsableSpace();
        if (usable < expectedSize) {
            throw new IOException(String.format("cannot decompress %s to %s: it needs %d bytes, %s has %d free",
                    xz, cache, expectedSize, dir, usable));
        }
        notes.accept("decompressing " + xz + " to " + cache + " (once)");
        Path partial = Files.createTempFile(dir, cache.getFileName() + ".", ".partial");
        boolean moved = false;
        long written = 0;
        try {
            try (InputStream in = new XZInputStream(new BufferedInputStream(Files.newInputStream(xz), BUFFER),
                    MEMORY_LIMIT_KIB);
                 OutputStream out = Files.newOutputStream(partial)) {
                byte[] buffer = new byte[BUFFER];
                for (int n; (n = in.read(buffer)) > 0; ) {
                    written += n;
                    if (written > expectedSize) {
                        break;
                    }
                    out.write(buffer, 0, n);
                }
            } catch (XZIOException | EOFException e) {
                throw new DumpFormatException(String.format("%s: corrupt xz data: %s (after 0x%x decompressed bytes)",
                        xz, e.getMessage(), written), e);
            }
            if (written != expectedSize) {
                throw new DumpFormatException(String.format(
                        "%s: the xz index records 0x%x uncompressed bytes but the data decompress to 0x%x or more "
                                + "(at decompressed offset 0x%x)", xz, expectedSize, written, Math.min(written, expectedSize)));
            }
            if (Files.getLastModifiedTime(partial).compareTo(xzModified) < 0) {
                Files.setLastModifiedTime(partial, xzModified); // an .xz dated in the future must not defeat the cache
            }
            Files.move(partial, cache, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            moved = true;
        } finally {
            if (!moved) {
                Files.deleteIfExists(partial);
            }
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(
                    MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256 (MessageDigest spec)", e);
        }
    }
}
