package io.clrheap.walker.source.elf;

import io.clrheap.walker.source.DumpFormatException;
import io.clrheap.walker.source.DumpFiles;
import io.clrheap.walker.source.InProgressFiles;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.function.Consumer;
import org.tukaani.xz.SeekableFileInputStream;
import org.tukaani.xz.SeekableXZInputStream;
import org.tukaani.xz.XZIOException;
import org.tukaani.xz.XZInputStream;

/**
 * Decompresses an {@code .xz} core (an ELF core or a Windows minidump) once, by streaming, into a cache file that later opens reuse: beside the
 * {@code .xz} as {@code <name without .xz>.decompressed} when that directory is writable, else in
 * {@code <tempRoot>/<sha-256 of path, size and mtime>.core}. A cache file is written under a temporary name and
 * renamed atomically, so one that exists is complete; it is reused when its size is the uncompressed size the
 * {@code .xz} index records and it is not older than the {@code .xz}.
 *
 * <p>Bounded: the ELF header and program headers are decompressed first; data that are no ELF file are refused there.
 * They declare the file's size (the end of the last segment's bytes or header table); an {@code .xz} whose index
 * records more, or a size that would leave less than {@link DumpFiles#FREE_SPACE_MARGIN} free in the cache's folder,
 * is refused before anything is written, and decompression stops with an error as soon as the data run past the
 * declared size. The partial file is deleted on every failure and, through {@link InProgressFiles}, when the JVM is
 * stopped (SIGINT, SIGTERM) while writing it.
 */
public final class XzCache {

    static final String SUFFIX = ".xz";
    static final String BESIDE_SUFFIX = ".decompressed";
    static final String TEMP_SUFFIX = ".core";
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
    /** gABI "Extended program header numbering": e_phnum holds this and section header 0's sh_info the count. */
    private static final int PN_XNUM = 0xffff;
    private static final int SH_INFO = 44;

    private final Path tempRoot;

    XzCache(Path tempRoot) {
        this.tempRoot = tempRoot;
    }

    /** The cache used by {@link ElfCore#open}: {@code java.io.tmpdir/clrheap-cache}. */
    public static XzCache inTempDir() {
        return new XzCache(Path.of(System.getProperty("java.io.tmpdir"), "clrheap-cache"));
    }

    /** Whether {@code file} is an xz file, by its first bytes (the xz stream header magic), whatever its name. */
    public static boolean isXz(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] magic = in.readNBytes(XZ_MAGIC.length);
            return Arrays.equals(magic, XZ_MAGIC);
        }
    }

    /** The decompressed copy of {@code xz}, made now if no complete, fresh one exists. */
    public Path decompressed(Path xz, Consumer<String> notes) throws IOException {
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

    /**
     * Decompresses {@code xz} (an ELF core or a minidump) into {@code target}, bounded as {@link #decompressed} is, for a
     * copy that must not land beside the {@code .xz}: conform hands a walker a golden fixture's minidump from its work
     * folder and leaves the corpus folder as it is.
     */
    public static void decompressTo(Path xz, Path target) throws IOException {
        decompress(xz, target, uncompressedSize(xz), Files.getLastModifiedTime(xz), note -> { });
    }

    /** Where the cache of {@code xz} lives. */
    Path cacheFile(Path xz, BasicFileAttributes attributes, boolean besideWritable) {
        if (besideWritable) {
            String name = xz.getFileName().toString();
            String base = name.endsWith(SUFFIX) && name.length() > SUFFIX.length()
                    ? name.substring(0, name.length() - SUFFIX.length()) : name;
            return xz.resolveSibling(base + BESIDE_SUFFIX);
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

    private static void decompress(Path xz, Path cache, long indexSize, FileTime xzModified, Consumer<String> notes)
            throws IOException {
        Path dir = cache.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        try (InputStream in = new XZInputStream(new BufferedInputStream(Files.newInputStream(xz), BUFFER), MEMORY_LIMIT_KIB)) {
            Headers headers = readHeaders(xz, in);
            long declared = headers.declaredSize();
            DumpFiles.requireSpace(dir, declared, "decompress " + xz + " to " + cache);
            if (indexSize > declared) {
                throw new DumpFormatException(String.format("%s: the xz index records 0x%x decompressed bytes, but the core's "
                        + "headers declare a file of 0x%x bytes (%s); refused before decompressing past the headers",
                        xz, indexSize, declared, headers.what()));
            }
            notes.accept("decompressing " + xz + " to " + cache + " (once)");
            Path partial = Files.createTempFile(dir, cache.getFileName() + ".", ".partial");
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
                if (Files.getLastModifiedTime(partial).compareTo(xzModified) < 0) {
                    Files.setLastModifiedTime(partial, xzModified); // an .xz dated in the future must not defeat the cache
                }
                Files.move(partial, cache, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
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

    /**
     * The decompressed bytes up to the end of the core's header tables, and the file size they declare.
     *
     * @param bytes the decompressed start of the core, through its program header table
     * @param what  which table or segment ends last, for messages
     */
    record Headers(byte[] bytes, long declaredSize, String what) {
    }

    /**
     * Decompresses the ELF header and the program header table (at most {@link #MAX_HEADER_BYTES}) and reads from them
     * the size of the file they describe: the end of the last segment's bytes ({@code p_offset + p_filesz}), of the
     * header tables and of the section header table. An xz file that holds no ELF file is refused here, before more
     * than {@link DumpFiles#PREFIX} bytes are decompressed.
     */
    static Headers readHeaders(Path xz, InputStream in) throws IOException {
        byte[] prefix = in.readNBytes(DumpFiles.PREFIX);
        if (prefix.length >= 4 && prefix[0] == 'M' && prefix[1] == 'D' && prefix[2] == 'M' && prefix[3] == 'P') {
            return minidumpHeaders(xz, in, prefix);
        }
        if (prefix.length < ElfCoreHeader.EHDR_SIZE || prefix[0] != 0x7f || prefix[1] != 'E' || prefix[2] != 'L' || prefix[3] != 'F') {
            throw new DumpFormatException(xz + ": an xz file whose data are not an ELF core: " + DumpFiles.describe(prefix)
                    + "; refused before decompressing the rest");
        }
        ByteBuffer ehdr = ByteBuffer.wrap(prefix).order(ByteOrder.LITTLE_ENDIAN);
        if (prefix[4] != 2 || prefix[5] != 1) {
            throw new DumpFormatException(String.format("%s: the decompressed ELF header has EI_CLASS %d and EI_DATA %d; only "
                    + "64-bit little-endian cores are read (ELFCLASS64 2, ELFDATA2LSB 1), at file offset 0x4", xz, prefix[4], prefix[5]));
        }
        long phoff = ehdr.getLong(32);
        long shoff = ehdr.getLong(40);
        int phentsize = Short.toUnsignedInt(ehdr.getShort(54));
        long phnum = Short.toUnsignedInt(ehdr.getShort(56));
        int shentsize = Short.toUnsignedInt(ehdr.getShort(58));
        long shnum = Short.toUnsignedInt(ehdr.getShort(60));
        if (phentsize != ElfCoreHeader.PHDR_SIZE) {
            throw new DumpFormatException(String.format("%s: e_phentsize is %d, not %d (sizeof(Elf64_Phdr)) at file offset 0x36",
                    xz, phentsize, ElfCoreHeader.PHDR_SIZE));
        }
        long declared = ElfCoreHeader.EHDR_SIZE;
        String what = "the ELF header";
        byte[] bytes = prefix;
        if (shoff != 0) {
            long end = end(xz, shoff, shnum * shentsize, "the section header table (e_shoff, e_shnum × e_shentsize)");
            if (end > declared) {
                declared = end;
                what = "the section header table ends there";
            }
        }
        if (phnum == PN_XNUM) {
            if (shoff == 0 || end(xz, shoff, ElfCoreHeader.SHDR_SIZE, "section header 0") > MAX_HEADER_BYTES) {
                // the count is in section header 0, which lies past the headers (a kernel core writes it at the end):
                // the section header table's end is the declared size; the reader checks the segments against it
                return new Headers(bytes, declared, what);
            }
            bytes = more(xz, in, bytes, shoff + ElfCoreHeader.SHDR_SIZE);
            phnum = Integer.toUnsignedLong(ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt((int) shoff + SH_INFO));
        }
        long tableEnd = end(xz, phoff, phnum * ElfCoreHeader.PHDR_SIZE, "the program header table (e_phoff, e_phnum)");
        if (tableEnd > MAX_HEADER_BYTES) {
            throw new DumpFormatException(String.format("%s: the program header table (e_phoff 0x%x, %d entries) ends at 0x%x, "
                    + "past the first 0x%x bytes where this reader looks for it (at file offset 0x20)", xz, phoff, phnum, tableEnd,
                    MAX_HEADER_BYTES));
        }
        bytes = more(xz, in, bytes, tableEnd);
        if (tableEnd > declared) {
            declared = tableEnd;
            what = "the program header table ends there";
        }
        ByteBuffer table = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        for (long i = 0; i < phnum; i++) {
            int at = (int) (phoff + i * ElfCoreHeader.PHDR_SIZE);
            long offset = table.getLong(at + 8);
            long filesz = table.getLong(at + 32);
            long end = end(xz, offset, filesz, String.format("program header %d (p_offset 0x%x, p_filesz 0x%x, at file offset "
                    + "0x%x)", i, offset, filesz, at));
            if (end > declared) {
                declared = end;
                what = String.format("program header %d's bytes end there", i);
            }
        }
        return new Headers(bytes, declared, what);
    }

    /**
     * A minidump's header, stream directory and Memory64List (at most {@link #MAX_HEADER_BYTES}), and the file size they
     * declare: the end of the last stream, or of the memory ({@code BaseRva} plus every range's DataSize), whichever
     * lies further (MINIDUMP_HEADER, MINIDUMP_DIRECTORY, MINIDUMP_MEMORY64_LIST: docs/reference/dump-formats.md §3).
     */
    private static Headers minidumpHeaders(Path xz, InputStream in, byte[] prefix) throws IOException {
        byte[] bytes = more(xz, in, prefix, 32);
        ByteBuffer header = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        long streams = Integer.toUnsignedLong(header.getInt(8));
        long directory = Integer.toUnsignedLong(header.getInt(12));
        long directoryEnd = end(xz, directory, streams * 12, "the stream directory (StreamDirectoryRva, NumberOfStreams × 12)");
        if (directoryEnd > MAX_HEADER_BYTES) {
            throw new DumpFormatException(String.format("%s: the minidump's stream directory (at 0x%x, %d streams) ends past the first "
                    + "0x%x bytes where this reader looks for it (at file offset 0x8)", xz, directory, streams, MAX_HEADER_BYTES));
        }
        bytes = more(xz, in, bytes, directoryEnd);
        long declared = directoryEnd;
        String what = "the stream directory ends there";
        long memoryList = -1;
        for (long i = 0; i < streams; i++) {
            ByteBuffer entry = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            int at = (int) (directory + 12 * i);
            long size = Integer.toUnsignedLong(entry.getInt(at + 4));
            long rva = Integer.toUnsignedLong(entry.getInt(at + 8));
            if (entry.getInt(at) == 9 && memoryList < 0) { // Memory64ListStream
                memoryList = rva;
            }
            if (rva + size > declared) {
                declared = rva + size;
                what = String.format("stream %d (type %d) ends there", i, entry.getInt(at));
            }
        }
        if (memoryList >= 0) {
            if (memoryList + 16 > MAX_HEADER_BYTES) {
                throw new DumpFormatException(String.format("%s: the Memory64List at 0x%x lies past the first 0x%x bytes where this reader "
                        + "looks for it", xz, memoryList, MAX_HEADER_BYTES));
            }
            bytes = more(xz, in, bytes, memoryList + 16);
            ByteBuffer list = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            long ranges = list.getLong((int) memoryList);
            long baseRva = list.getLong((int) memoryList + 8);
            long listEnd = end(xz, memoryList + 16, ranges < 0 || ranges > MAX_HEADER_BYTES / 16 ? Long.MAX_VALUE / 2 : ranges * 16,
                    String.format("the Memory64List's %s descriptors (at file offset 0x%x)", Long.toUnsignedString(ranges), memoryList));
            if (listEnd > MAX_HEADER_BYTES) {
                throw new DumpFormatException(String.format("%s: the Memory64List's %s descriptors end past the first 0x%x bytes where this "
                        + "reader looks for them (at file offset 0x%x)", xz, Long.toUnsignedString(ranges), MAX_HEADER_BYTES, memoryList));
            }
            bytes = more(xz, in, bytes, listEnd);
            list = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            long memoryEnd = baseRva;
            for (long r = 0; r < ranges; r++) {
                long size = list.getLong((int) (memoryList + 24 + 16 * r));
                memoryEnd = end(xz, memoryEnd, size, String.format("memory range %d (DataSize 0x%x, descriptor at file offset 0x%x)", r, size,
                        memoryList + 16 + 16 * r));
            }
            if (memoryEnd > declared) {
                declared = memoryEnd;
                what = "the Memory64List's memory ends there";
            }
        }
        return new Headers(bytes, declared, what);
    }

    /** {@code offset + length}, refused when it does not fit a file. */
    private static long end(Path xz, long offset, long length, String what) throws DumpFormatException {
        if (offset < 0 || length < 0 || offset > Long.MAX_VALUE - length) {
            throw new DumpFormatException(String.format("%s: %s: 0x%x + 0x%x bytes is past any file size", xz, what, offset, length));
        }
        return offset + length;
    }

    /** {@code bytes} extended with decompressed data to {@code length} bytes, when shorter. */
    private static byte[] more(Path xz, InputStream in, byte[] bytes, long length) throws IOException {
        if (length <= bytes.length) {
            return bytes;
        }
        byte[] longer = Arrays.copyOf(bytes, (int) length);
        int got = in.readNBytes(longer, bytes.length, longer.length - bytes.length);
        if (bytes.length + got < length) {
            throw new DumpFormatException(String.format("%s: the data end at 0x%x decompressed bytes, inside the core's headers "
                    + "(which end at 0x%x)", xz, bytes.length + got, length));
        }
        return longer;
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
