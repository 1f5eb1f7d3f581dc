package io.clrheap.walker.source.elf;

import io.clrheap.walker.source.CoreCache;
import io.clrheap.walker.source.DumpFiles;
import io.clrheap.walker.source.DumpFormatException;
import io.clrheap.walker.source.InProgressFiles;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.function.Consumer;
import org.tukaani.xz.SeekableFileInputStream;
import org.tukaani.xz.SeekableXZInputStream;
import org.tukaani.xz.XZIOException;
import org.tukaani.xz.XZInputStream;

/**
 * Decompresses an {@code .xz} core (an ELF core or a Windows minidump), by streaming, never beside it: into the user's
 * cache folder ({@link CoreCache.InFolder}: one entry per content, reused by every later open of the same bytes under any
 * name, the least recently used evicted past the bound; {@link CachedCores}), or into a temporary file removed when the
 * dump is closed ({@link CoreCache.Temporary}, and a core larger than the cache's whole bound). A file is written under
 * a temporary name and renamed atomically, so one under its final name is complete.
 *
 * <p>Bounded: the ELF header and program headers are decompressed first; data that are no ELF file are refused there.
 * They declare the file's size (the end of the last segment's bytes or header table); an {@code .xz} whose index
 * records more, or a size that would leave less than {@link DumpFiles#FREE_SPACE_MARGIN} free in the target's folder,
 * is refused before anything is written, and decompression stops with an error as soon as the data run past the
 * declared size. The partial file is deleted on every failure and, through {@link InProgressFiles}, when the JVM is
 * stopped (SIGINT, SIGTERM) while writing it.
 */
public final class XzCache {

    private static final byte[] XZ_MAGIC = {(byte) 0xfd, '7', 'z', 'X', 'Z', 0};

    /**
     * The most memory the xz decoder may use, in KiB: xz's -9 preset needs a 64 MiB dictionary (xz(1), "Memory
     * usage"); a header that asks for more is corrupt or hostile and must not exhaust the heap.
     */
    private static final int MEMORY_LIMIT_KIB = 256 * 1024;
    private static final int BUFFER = 1 << 20;
    /**
     * Where the header tables must end: room for an ELF header and a million program headers (the most
     * {@link ElfCoreLimits#DEFAULT} accepts), which createdump and the kernel write right after it.
     */
    static final long MAX_HEADER_BYTES = 64L << 20;

    /** Frees room for a file about to be written, once its headers have been checked. */
    @FunctionalInterface
    private interface Room {
        Room NONE = bytes -> { };

        void make(long bytes) throws IOException;
    }

    private XzCache() {
    }

    /** Whether {@code file} is an xz file, by its first bytes (the xz stream header magic), whatever its name. */
    public static boolean isXz(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] magic = in.readNBytes(XZ_MAGIC.length);
            return Arrays.equals(magic, XZ_MAGIC);
        }
    }

    /**
     * The decompressed copy of {@code xz}: the cache's entry for its bytes, made now if there is none, or a temporary
     * file. Decompressing sends one line to {@code notes}: {@code decompressing X to Y (once)} into the cache, or why
     * the file is temporary. A cache folder that cannot be written is said in a note, and a temporary file used.
     *
     * @throws IOException the xz file is corrupt, or declares more than its headers or the free space allow (the
     *                     subclass {@link DumpFormatException} says where), or {@code $CLRHEAP_CACHE_MAX} is no size
     */
    public static DecompressedCore decompressed(Path xz, CoreCache cache, Consumer<String> notes) throws IOException {
        long size = uncompressedSize(xz);
        if (cache.resolved() instanceof CoreCache.InFolder folder) {
            if (size > folder.maxBytes()) {
                return temporary(xz, size, notes, String.format("a temporary file, removed when done: its %,d bytes are more than the "
                        + "cache's whole bound, %,d bytes, $%s", size, folder.maxBytes(), CoreCache.CLRHEAP_CACHE_MAX));
            }
            CachedCores cores = new CachedCores(folder.folder(), folder.maxBytes());
            String unwritable = cores.whyNotWritable();
            if (unwritable != null) {
                return temporary(xz, size, notes, "a temporary file, removed when done: the cache folder " + unwritable);
            }
            Path entry = cores.entryFor(CachedCores.key(xz));
            if (!cores.reuse(entry, size)) {
                decompress(xz, entry, size, notes, "once", bytes -> cores.makeRoom(bytes, entry));
            }
            return new DecompressedCore(entry, false);
        }
        return temporary(xz, size, notes, "a temporary file, removed when done: --no-cache");
    }

    /**
     * Decompresses {@code xz} (an ELF core or a minidump) into {@code target}, bounded as {@link #decompressed} is, for a
     * copy that must not land in the cache: conform hands a walker a golden fixture's minidump from its work folder.
     */
    public static void decompressTo(Path xz, Path target) throws IOException {
        decompress(xz, target, uncompressedSize(xz), note -> { }, "", Room.NONE);
    }

    /** A temporary file in {@code java.io.tmpdir}, registered with {@link InProgressFiles} until the dump is closed. */
    private static DecompressedCore temporary(Path xz, long size, Consumer<String> notes, String why) throws IOException {
        Path file = Files.createTempFile(Path.of(System.getProperty("java.io.tmpdir")), "clrheap-", ".core");
        InProgressFiles.register(file); // a JVM stopped before the dump is closed deletes it on its way out
        try {
            decompress(xz, file, size, notes, why, Room.NONE);
        } catch (IOException | RuntimeException | Error e) {
            InProgressFiles.deleteQuietly(file, e);
            throw e;
        }
        return new DecompressedCore(file, true);
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

    /**
     * Decompresses {@code xz} into {@code target} through a partial file beside the target, renamed when complete.
     *
     * @param why  the note's parenthesis ({@code once}, or why the file is temporary); no note when empty
     * @param room called with the declared size once the headers are checked, before anything is written
     */
    private static void decompress(Path xz, Path target, long indexSize, Consumer<String> notes, String why, Room room)
            throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        try (InputStream in = new XZInputStream(new BufferedInputStream(Files.newInputStream(xz), BUFFER), MEMORY_LIMIT_KIB)) {
            CoreHeaders headers = CoreHeaders.read(xz, in);
            long declared = headers.declaredSize();
            if (indexSize > declared) {
                throw new DumpFormatException(String.format("%s: the xz index records 0x%x decompressed bytes, but the core's "
                        + "headers declare a file of 0x%x bytes (%s); refused before decompressing past the headers",
                        xz, indexSize, declared, headers.what()));
            }
            room.make(indexSize);
            DumpFiles.requireSpace(dir, declared, "decompress " + xz + " to " + target);
            if (!why.isEmpty()) {
                notes.accept("decompressing " + xz + " to " + target + " (" + why + ")");
            }
            Path partial = Files.createTempFile(dir, target.getFileName() + ".", ".partial");
            InProgressFiles.register(partial);
            boolean moved = false;
            long written = headers.bytes().length;
            try {
                try (OutputStream out = Files.newOutputStream(partial)) {
                    out.write(headers.bytes());
                    byte[] buffer = new byte[BUFFER];
                    // at most one byte past the declared size: enough to tell "more" from "exactly"
                    for (int n; (n = in.read(buffer, 0, (int) Math.min(buffer.length, declared + 1 - written))) > 0; ) {
                        written += n;
                        if (written > declared) {
                            throw new DumpFormatException(String.format("%s: the xz data decompress past the 0x%x bytes the "
                                    + "core's headers declare (%s); stopped at decompressed offset 0x%x", xz, declared,
                                    headers.what(), declared));
                        }
                        out.write(buffer, 0, n);
                    }
                } catch (XZIOException | EOFException e) {
                    throw new DumpFormatException(String.format("%s: corrupt xz data: %s (after 0x%x decompressed bytes)",
                            xz, e.getMessage(), written), e);
                }
                if (written != indexSize) {
                    throw new DumpFormatException(String.format(
                            "%s: the xz index records 0x%x uncompressed bytes but the data decompress to 0x%x "
                                    + "(at decompressed offset 0x%x)", xz, indexSize, written, Math.min(written, indexSize)));
                }
                Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                moved = true;
            } finally {
                if (!moved) {
                    Files.deleteIfExists(partial);
                }
                InProgressFiles.unregister(partial);
            }
        } catch (XZIOException | EOFException e) {
            throw new DumpFormatException(String.format("%s: corrupt xz data: %s (in the core's headers)", xz, e.getMessage()), e);
        }
    }
}
