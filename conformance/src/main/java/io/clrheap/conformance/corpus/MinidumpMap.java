package io.clrheap.conformance.corpus;

import io.clrheap.walker.source.minidump.StreamType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Where the parts of a minidump lie in its file — the header, the stream directory, each stream, each memory range of
 * the Memory64List — read from its first bytes, so that a golden fixture whose minidump changed is reported with what
 * its first differing byte belongs to (MINIDUMP_HEADER, MINIDUMP_DIRECTORY, MINIDUMP_MEMORY64_LIST:
 * docs/reference/dump-formats.md section 3). Not a reader: nothing is checked beyond what locating needs.
 *
 * @param parts the parts, in the order the file declares them
 */
record MinidumpMap(List<Part> parts) {

    /** At most this much of the file is read to find the directory and the Memory64List's descriptors. */
    static final int MAX_PREFIX = 64 << 20;
    private static final int HEADER_SIZE = 32;
    private static final int DIRECTORY_ENTRY_SIZE = 12;
    private static final long MEMORY64_LIST = 9;

    /**
     * A part of the file.
     *
     * @param what    what it is: {@code the header}, {@code stream ThreadListStream}, {@code memory}
     * @param offset  where it starts in the file
     * @param size    its bytes
     * @param address for a memory range, the address of its first byte; else -1
     */
    record Part(String what, long offset, long size, long address) {
    }

    MinidumpMap {
        parts = List.copyOf(parts);
    }

    /**
     * The map of the minidump {@code in} streams (read from its start; not closed).
     *
     * @throws IOException when it cannot be read, or is no minidump whose tables lie in its first {@link #MAX_PREFIX} bytes
     */
    static MinidumpMap read(InputStream in) throws IOException {
        Prefix file = new Prefix(in);
        ByteBuffer header = file.upTo(HEADER_SIZE);
        if (header.getInt(0) != 0x504d444d) { // "MDMP"
            throw new IOException(String.format(Locale.ROOT, "not a minidump: signature 0x%08x", header.getInt(0)));
        }
        long streams = Integer.toUnsignedLong(header.getInt(8));
        long directory = Integer.toUnsignedLong(header.getInt(12));
        List<Part> parts = new ArrayList<>();
        parts.add(new Part("the header", 0, HEADER_SIZE, -1));
        parts.add(new Part("the stream directory", directory, streams * DIRECTORY_ENTRY_SIZE, -1));
        ByteBuffer bytes = file.upTo(directory + streams * DIRECTORY_ENTRY_SIZE);
        long memoryList = -1;
        for (long i = 0; i < streams; i++) {
            int at = (int) (directory + i * DIRECTORY_ENTRY_SIZE);
            long type = Integer.toUnsignedLong(bytes.getInt(at));
            long size = Integer.toUnsignedLong(bytes.getInt(at + 4));
            long rva = Integer.toUnsignedLong(bytes.getInt(at + 8));
            parts.add(new Part("stream " + StreamType.name(type), rva, size, -1));
            if (type == MEMORY64_LIST && memoryList < 0) {
                memoryList = rva;
            }
        }
        if (memoryList >= 0) {
            bytes = file.upTo(memoryList + 16);
            long ranges = bytes.getLong((int) memoryList);
            long data = bytes.getLong((int) memoryList + 8);
            if (ranges < 0 || ranges > MAX_PREFIX / 16) {
                throw new IOException("the Memory64List declares " + Long.toUnsignedString(ranges) + " ranges");
            }
            bytes = file.upTo(memoryList + 16 + ranges * 16);
            for (int r = 0; r < ranges; r++) {
                int at = (int) (memoryList + 16 + 16L * r);
                long address = bytes.getLong(at);
                long size = bytes.getLong(at + 8);
                parts.add(new Part(String.format(Locale.ROOT, "memory range %,d of %,d", r + 1, ranges), data, size, address));
                data += size;
            }
        }
        return new MinidumpMap(parts);
    }

    /** What the byte at {@code offset} belongs to: {@code stream ThreadListStream}, {@code memory at 0x7f... (memory range 3 of 40)}. */
    String where(long offset) {
        for (Part p : parts) {
            if (offset >= p.offset() && offset - p.offset() < p.size()) {
                return p.address() < 0 ? p.what() : String.format(Locale.ROOT, "memory at 0x%x (%s)", p.address() + (offset - p.offset()), p.what());
            }
        }
        return "no part the header, directory or Memory64List declares";
    }

    /** The start of a stream, read as far as asked for. */
    private static final class Prefix {
        private final InputStream in;
        private byte[] bytes = new byte[0];

        Prefix(InputStream in) {
            this.in = in;
        }

        /** The first {@code length} bytes (at least), little-endian. */
        ByteBuffer upTo(long length) throws IOException {
            if (length > MAX_PREFIX) {
                throw new IOException(String.format(Locale.ROOT, "its tables end at byte %,d, past the first %,d read to locate them", length, MAX_PREFIX));
            }
            if (length > bytes.length) {
                int had = bytes.length;
                bytes = Arrays.copyOf(bytes, (int) length);
                int got = in.readNBytes(bytes, had, bytes.length - had);
                if (had + got < length) {
                    throw new IOException(String.format(Locale.ROOT, "it ends at byte %,d, inside its tables (which end at %,d)", had + got, length));
                }
            }
            return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        }
    }
}
