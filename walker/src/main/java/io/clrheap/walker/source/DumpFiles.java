package io.clrheap.walker.source;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import org.tukaani.xz.XZInputStream;

/**
 * What a dump file is, read from its attributes and first bytes, never from its name, and never by reading more than
 * a prefix: {@link #requireRegularFile} before anything opens it (a FIFO would block the open), {@link #sniff} for
 * the format (an {@code .xz} file is decompressed just far enough to see a tar or an ELF header), and
 * {@link #requireSpace} before a file of a declared size is written.
 */
public final class DumpFiles {

    /** The formats {@link #sniff} tells apart. */
    public enum Format {
        /** A Windows minidump ({@code MDMP}), xz-compressed or not. */
        MINIDUMP,
        /** An xz stream of a tar archive: a fixture bundle. */
        BUNDLE,
        /** An xz stream of an ELF file: a compressed core. */
        XZ_ELF,
        /** Anything else that is not xz: read as an ELF core, whose reader says what is wrong with it. */
        ELF
    }

    /** The bytes of an xz stream header's magic (xz file format 1.2.0, section 2.1.1.1). */
    private static final byte[] XZ_MAGIC = {(byte) 0xfd, '7', 'z', 'X', 'Z', 0};
    private static final byte[] ELF_MAGIC = {0x7f, 'E', 'L', 'F'};
    /** What {@link #sniff} decompresses of an xz file: one tar header block. */
    public static final int PREFIX = 512;
    /** A memory limit for the decoder while sniffing: a hostile dictionary size must not cost a GiB just to look. */
    private static final int SNIFF_XZ_MEMORY_LIMIT_KIB = 256 * 1024;
    /** Space left free on a file system after writing a declared size: the system and other programs need some. */
    public static final long FREE_SPACE_MARGIN = 256L << 20;

    private DumpFiles() {
    }

    /**
     * Refuses anything but a regular file (a directory, a FIFO, a device, a socket), looking at its attributes only
     * (symbolic links are followed): opening a FIFO would block until someone writes to it.
     *
     * @throws java.nio.file.NoSuchFileException there is no such file
     * @throws IOException                       it is not a regular file; the message names it and says what it is
     */
    public static void requireRegularFile(Path file) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
        if (attributes.isRegularFile()) {
            return;
        }
        throw new IOException(file + " is " + kind(file, attributes) + ", not a regular file: a dump must be a file");
    }

    private static String kind(Path file, BasicFileAttributes attributes) {
        if (attributes.isDirectory()) {
            return "a directory";
        }
        try {
            int mode = (Integer) Files.getAttribute(file, "unix:mode");
            return switch (mode & 0170000) {
                case 0010000 -> "a FIFO (named pipe)";
                case 0020000 -> "a character device";
                case 0060000 -> "a block device";
                case 0140000 -> "a socket";
                default -> "a special file";
            };
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
            return "a special file (a FIFO, a device or a socket)";
        }
    }

    /**
     * The format of {@code file}, from its first bytes; an xz file is decompressed only as far as {@link #PREFIX}
     * bytes. The caller has checked it is a regular file.
     *
     * @throws DumpFormatException an xz file whose data start with neither an ELF header nor a tar header, naming the
     *                             file and what its data start with
     */
    public static Format sniff(Path file) throws IOException {
        byte[] magic;
        try (InputStream in = Files.newInputStream(file)) {
            magic = in.readNBytes(XZ_MAGIC.length);
        }
        if (magic.length >= 4 && magic[0] == 'M' && magic[1] == 'D' && magic[2] == 'M' && magic[3] == 'P') {
            return Format.MINIDUMP;
        }
        if (!startsWith(magic, XZ_MAGIC)) {
            return Format.ELF;
        }
        byte[] prefix = xzPrefix(file);
        if (prefix.length >= 4 && prefix[0] == 'M' && prefix[1] == 'D' && prefix[2] == 'M' && prefix[3] == 'P') {
            return Format.MINIDUMP; // an xz-compressed minidump: Minidump.open decompresses it
        }
        if (startsWith(prefix, ELF_MAGIC)) {
            return Format.XZ_ELF;
        }
        if (isTarHeader(prefix)) {
            return Format.BUNDLE;
        }
        throw new DumpFormatException(file + ": an xz file whose data are neither an ELF core, a minidump nor a fixture bundle's tar: "
                + describe(prefix) + "; refused before decompressing the rest");
    }

    /** The first {@link #PREFIX} decompressed bytes of xz file {@code file} (fewer if its data are shorter). */
    public static byte[] xzPrefix(Path file) throws IOException {
        try (InputStream in = new XZInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16),
                SNIFF_XZ_MEMORY_LIMIT_KIB)) {
            return in.readNBytes(PREFIX);
        } catch (IOException e) {
            if (e instanceof DumpFormatException) {
                throw e;
            }
            throw new DumpFormatException(file + ": not a readable xz file: " + e.getMessage()
                    + " (in its first " + PREFIX + " decompressed bytes)", e);
        }
    }

    /** Whether {@code block} is a ustar (POSIX or GNU) header: {@code ustar} at offset 257. */
    public static boolean isTarHeader(byte[] block) {
        return block.length >= 262 && new String(block, 257, 5, StandardCharsets.US_ASCII).equals("ustar");
    }

    /** What decompressed data start with, for a message: the ELF magic, a tar header, or the first bytes in hex. */
    public static String describe(byte[] prefix) {
        if (prefix.length == 0) {
            return "they are empty";
        }
        if (startsWith(prefix, ELF_MAGIC)) {
            return "they start with an ELF header";
        }
        if (isTarHeader(prefix)) {
            return "they are a tar archive (ustar at offset 257)";
        }
        StringBuilder hex = new StringBuilder("they start with");
        for (int i = 0; i < Math.min(16, prefix.length); i++) {
            hex.append(String.format(" %02x", prefix[i] & 0xff));
        }
        return hex.append(prefix.length > 16 ? " …" : "").append(" (no ELF magic 7f 45 4c 46 at offset 0, no ustar at 257)")
                .toString();
    }

    /**
     * Refuses to write {@code bytes} into {@code dir} unless the file system keeps {@link #FREE_SPACE_MARGIN} free
     * afterwards.
     *
     * @param what what would be written, for the message (e.g. {@code "decompress core.xz to core.decompressed"})
     */
    public static void requireSpace(Path dir, long bytes, String what) throws IOException {
        long usable = Files.getFileStore(dir).getUsableSpace();
        if (bytes > usable - FREE_SPACE_MARGIN) {
            throw new IOException(String.format("cannot %s: it needs %d bytes, %s has %d bytes free (and %d must stay free)",
                    what, bytes, dir, usable, FREE_SPACE_MARGIN));
        }
    }

    private static boolean startsWith(byte[] bytes, byte[] magic) {
        if (bytes.length < magic.length) {
            return false;
        }
        for (int i = 0; i < magic.length; i++) {
            if (bytes[i] != magic[i]) {
                return false;
            }
        }
        return true;
    }
}
