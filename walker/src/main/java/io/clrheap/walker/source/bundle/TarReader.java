package io.clrheap.walker.source.bundle;

import io.clrheap.walker.source.DumpFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A strict reader of the tar archives a bundle is made of (POSIX.1-1988 ustar, with POSIX.1-2001 {@code x} extended
 * headers for long names and sizes; GNU-magic headers accepted): it returns regular files only and refuses every other
 * entry type — links, devices, directories, FIFOs, global and GNU long-name headers, sparse files — naming the type and
 * the offset. Every header's checksum is verified; sizes come as octal or as the base-256 form; an extended header
 * may hold at most {@link #MAX_EXTENDED_HEADER} bytes. The reader never reads past the entry it is in, so what it
 * decompresses is bounded by the sizes the headers declare (which the caller checks before reading).
 *
 * <p>Field offsets: POSIX.1-1988 "ustar Interchange Format" (IEEE Std 1003.1, pax, "ustar Header Block"): name 0
 * (100), mode 100, uid 108, gid 116, size 124 (12), mtime 136, chksum 148 (8), typeflag 156, linkname 157 (100),
 * magic 257 (6), version 263 (2), uname 265, gname 297, devmajor 329, devminor 337, prefix 345 (155).
 */
final class TarReader {

    static final int BLOCK = 512;
    /** An extended header ({@code x}) holds {@code path} and {@code size} records; bigger ones are refused. */
    static final int MAX_EXTENDED_HEADER = 4096;

    private final InputStream in;
    private final String source;
    private final byte[] block = new byte[BLOCK];
    /** Offset in the decompressed archive of the next byte {@link #in} gives. */
    private long offset;
    /** Data bytes of the current entry not read yet. */
    private long remaining;
    /** Padding after the current entry's data, up to the next block. */
    private long padding;
    /** The current entry's name, for messages. */
    private String current = "";

    /**
     * @param in     the decompressed archive
     * @param source what to name in messages (the bundle file)
     */
    TarReader(InputStream in, String source) {
        this.in = in;
        this.source = source;
    }

    long offset() {
        return offset;
    }

    /**
     * The next regular file, or null at the end-of-archive marker (a block of zeros). The rest of the current entry, if
     * any, is skipped first.
     */
    TarHeader next() throws IOException {
        skip(remaining + padding);
        remaining = 0;
        padding = 0;
        String extendedPath = null;
        long extendedSize = -1;
        boolean extended = false;
        while (true) {
            long at = offset;
            if (!readBlock()) {
                throw error(at, "the archive ends without an end-of-archive marker (truncated)");
            }
            if (isZero(block)) {
                if (extended) {
                    throw error(at, "an extended header ('x') is followed by the end of the archive instead of a file");
                }
                return null;
            }
            verifyChecksum(at);
            boolean gnu = checkMagic(at);
            char type = (char) (block[156] & 0xff);
            long size = size(at);
            if (type == 'x') {
                if (extended) {
                    throw error(at, "two extended headers ('x') in a row");
                }
                if (size > MAX_EXTENDED_HEADER) {
                    throw error(at, String.format("an extended header ('x') of %d bytes; at most %d are accepted", size,
                            MAX_EXTENDED_HEADER));
                }
                byte[] records = new byte[(int) size];
                readFully(records, 0, records.length, "an extended header");
                skip(paddingOf(size));
                ExtendedRecords parsed = parseExtended(records, at);
                extendedPath = parsed.path;
                extendedSize = parsed.size;
                extended = true;
                continue;
            }
            if (type != '0' && type != '\0') {
                throw error(at, String.format("entry '%s' is %s: a bundle holds regular files only",
                        printable(headerName(gnu)), typeName(type)));
            }
            String name = extendedPath != null ? extendedPath : headerName(gnu);
            long actualSize = extendedSize >= 0 ? extendedSize : size;
            remaining = actualSize;
            padding = paddingOf(actualSize);
            current = name;
            return new TarHeader(name, actualSize, at);
        }
    }

    /** Reads data of the current entry; -1 at its end. */
    int read(byte[] buffer, int offsetInBuffer, int length) throws IOException {
        if (remaining == 0) {
            return -1;
        }
        int wanted = (int) Math.min(length, remaining);
        int n = in.read(buffer, offsetInBuffer, wanted);
        if (n < 0) {
            throw error(offset, String.format("the archive ends inside entry %s, %d bytes before its end (truncated)",
                    printable(current), remaining));
        }
        offset += n;
        remaining -= n;
        return n;
    }

    /**
     * After the end-of-archive marker: reads what is left of the decompressed archive, at most {@code maxTrailing}
     * bytes, which must all be zero (a second zero block and the record padding tar writers add), up to the end of the
     * stream — so that the xz decoder verifies its last check and index.
     */
    void finish(long maxTrailing) throws IOException {
        byte[] buffer = new byte[8192];
        long read = 0;
        for (int n; (n = in.read(buffer, 0, (int) Math.min(buffer.length, maxTrailing + 1 - read))) > 0; ) {
            for (int i = 0; i < n; i++) {
                if (buffer[i] != 0) {
                    throw error(offset + i, "data after the end-of-archive marker");
                }
            }
            offset += n;
            read += n;
            if (read > maxTrailing) {
                throw error(offset, String.format("more than %d bytes of padding after the end-of-archive marker",
                        maxTrailing));
            }
        }
    }

    private boolean readBlock() throws IOException {
        int n = in.readNBytes(block, 0, BLOCK);
        offset += n;
        if (n == 0) {
            return false;
        }
        if (n < BLOCK) {
            throw error(offset - n, "the archive ends inside a tar header (truncated)");
        }
        return true;
    }

    private void readFully(byte[] buffer, int off, int length, String what) throws IOException {
        int n = in.readNBytes(buffer, off, length);
        offset += n;
        if (n < length) {
            throw error(offset, "the archive ends inside " + what + " (truncated)");
        }
    }

    private void skip(long count) throws IOException {
        byte[] buffer = new byte[(int) Math.min(count, 8192)];
        long left = count;
        while (left > 0) {
            int n = in.read(buffer, 0, (int) Math.min(left, buffer.length));
            if (n < 0) {
                throw error(offset, "the archive ends inside the data or padding of entry " + printable(current) + " (truncated)");
            }
            offset += n;
            left -= n;
        }
    }

    private static long paddingOf(long size) {
        return (BLOCK - size % BLOCK) % BLOCK;
    }

    private static boolean isZero(byte[] bytes) {
        for (byte b : bytes) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    private void verifyChecksum(long at) throws IOException {
        long stored = octal(at, 148, 8, "chksum");
        long computed = 0;
        for (int i = 0; i < BLOCK; i++) {
            computed += (i >= 148 && i < 156) ? ' ' : (block[i] & 0xff);
        }
        if (stored != computed) {
            throw error(at, String.format("tar header checksum is %d but the header's bytes sum to %d: not a tar header, "
                    + "or a corrupt one", stored, computed));
        }
    }

    /** True for the GNU magic ({@code "ustar  \0"}), false for POSIX ({@code "ustar\0" "00"}); else refuses. */
    private boolean checkMagic(long at) throws IOException {
        byte[] magic = Arrays.copyOfRange(block, 257, 265);
        if (Arrays.equals(magic, ("ustar\0" + "00").getBytes(StandardCharsets.US_ASCII))) {
            return false;
        }
        if (Arrays.equals(magic, "ustar  \0".getBytes(StandardCharsets.US_ASCII))) {
            return true;
        }
        throw error(at, "tar header without the ustar magic (an old V7 or unknown tar format)");
    }

    private long size(long at) throws IOException {
        if ((block[124] & 0x80) != 0) { // base-256: the first byte 0x80, then a big-endian number (0xff: negative)
            if ((block[124] & 0xff) != 0x80) {
                throw error(at, "negative size in the tar header");
            }
            long value = 0;
            for (int i = 125; i < 136; i++) {
                if ((value >>> 55) != 0) {
                    throw error(at, "a size in the tar header beyond 2^63 bytes");
                }
                value = (value << 8) | (block[i] & 0xff);
            }
            if (value < 0) {
                throw error(at, "a size in the tar header beyond 2^63 bytes");
            }
            return value;
        }
        return octal(at, 124, 12, "size");
    }

    /** An octal field: optional leading spaces, octal digits, then NULs or spaces to the field's end. */
    private long octal(long at, int start, int length, String field) throws IOException {
        int i = start;
        int end = start + length;
        while (i < end && block[i] == ' ') {
            i++;
        }
        long value = 0;
        int digits = 0;
        while (i < end && block[i] >= '0' && block[i] <= '7') {
            if ((value >>> 60) != 0) {
                throw error(at, "tar header field " + field + " overflows");
            }
            value = (value << 3) | (block[i] - '0');
            digits++;
            i++;
        }
        while (i < end && (block[i] == 0 || block[i] == ' ')) {
            i++;
        }
        if (digits == 0 || i != end) {
            throw error(at, "tar header field " + field + " is not an octal number: '"
                    + printable(new String(block, start, length, StandardCharsets.ISO_8859_1)) + "'");
        }
        return value;
    }

    /** {@code prefix/name} (POSIX; GNU headers use the prefix field for other things), decoded as UTF-8. */
    private String headerName(boolean gnu) throws IOException {
        String name = field(0, 100);
        if (!gnu) {
            String prefix = field(345, 155);
            if (!prefix.isEmpty()) {
                name = prefix + "/" + name;
            }
        }
        return name;
    }

    private String field(int start, int length) throws IOException {
        int end = start;
        while (end < start + length && block[end] != 0) {
            end++;
        }
        return utf8(Arrays.copyOfRange(block, start, end), offset - BLOCK + start);
    }

    private String utf8(byte[] bytes, long at) throws IOException {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw error(at, "an entry name that is not UTF-8");
        }
    }

    private record ExtendedRecords(String path, long size) {
    }

    /** {@code "<length> <key>=<value>\n"} records (POSIX.1-2001 pax "pax Extended Header"); path and size are used. */
    private ExtendedRecords parseExtended(byte[] records, long at) throws IOException {
        String path = null;
        long size = -1;
        int i = 0;
        while (i < records.length) {
            int space = i;
            while (space < records.length && records[space] >= '0' && records[space] <= '9' && space - i < 6) {
                space++;
            }
            if (space == i || space >= records.length || records[space] != ' ') {
                throw error(at, "a malformed extended header record (no length)");
            }
            int length = Integer.parseInt(new String(records, i, space - i, StandardCharsets.US_ASCII));
            int end = i + length;
            if (length <= space - i + 1 || end > records.length || records[end - 1] != '\n') {
                throw error(at, "a malformed extended header record (its length " + length + " does not end at a line break)");
            }
            String record = utf8(Arrays.copyOfRange(records, space + 1, end - 1), at);
            int equals = record.indexOf('=');
            if (equals <= 0) {
                throw error(at, "a malformed extended header record (no key=value)");
            }
            String key = record.substring(0, equals);
            String value = record.substring(equals + 1);
            if (key.equals("path")) {
                path = value;
            } else if (key.equals("size")) {
                if (value.isEmpty() || value.length() > 18 || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
                    throw error(at, "extended header size '" + printable(value) + "' is not a decimal number below 10^18");
                }
                size = Long.parseLong(value);
            }
            i = end;
        }
        return new ExtendedRecords(path, size);
    }

    private static String typeName(char type) {
        return switch (type) {
            case '1' -> "a hard link (type '1')";
            case '2' -> "a symbolic link (type '2')";
            case '3' -> "a character device (type '3')";
            case '4' -> "a block device (type '4')";
            case '5' -> "a directory (type '5')";
            case '6' -> "a FIFO (type '6')";
            case '7' -> "a contiguous file (type '7')";
            case 'g' -> "a global extended header (type 'g')";
            case 'L', 'K' -> "a GNU long name or link header (type '" + type + "')";
            case 'S' -> "a GNU sparse file (type 'S')";
            default -> type >= 0x20 && type < 0x7f ? "of type '" + type + "'" : String.format("of type 0x%02x", (int) type);
        };
    }

    /** The text with control characters shown as {@code \xNN}, for messages. */
    static String printable(String text) {
        StringBuilder s = new StringBuilder();
        text.codePoints().limit(200).forEach(c -> {
            if (Character.isISOControl(c)) {
                s.append(String.format("\\x%02x", c));
            } else {
                s.appendCodePoint(c);
            }
        });
        return text.codePointCount(0, text.length()) > 200 ? s + "…" : s.toString();
    }

    private DumpFormatException error(long at, String what) {
        return new DumpFormatException(String.format("%s: %s (at offset 0x%x of the decompressed archive)", source, what, at));
    }
}
