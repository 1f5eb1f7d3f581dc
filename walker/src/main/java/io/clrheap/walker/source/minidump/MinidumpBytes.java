package io.clrheap.walker.source.minidump;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * The mapped bytes of a minidump, read little endian by file offset. Parsing code calls {@link #require} before
 * reading any structure, so a structure that runs past the end of the file is a {@link MinidumpFormatException}
 * naming the offset, never a raw {@link IndexOutOfBoundsException} from the segment.
 */
final class MinidumpBytes {

    static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final MemorySegment segment;
    private final Path path;

    MinidumpBytes(MemorySegment segment, Path path) {
        this.segment = segment;
        this.path = path;
    }

    MemorySegment segment() {
        return segment;
    }

    long size() {
        return segment.byteSize();
    }

    /** Throws unless {@code [offset, offset + length)} (unsigned 64-bit values) lies inside the file. */
    void require(long offset, long length, String what) throws MinidumpFormatException {
        if (!inside(offset, length)) {
            throw error(offset, String.format("%s needs 0x%x bytes at 0x%x, past the end of the file (0x%x bytes)",
                    what, length, offset, size()));
        }
    }

    /** True when {@code [offset, offset + length)}, both read as unsigned, lies inside the file. */
    boolean inside(long offset, long length) {
        return Long.compareUnsigned(offset, size()) <= 0 && Long.compareUnsigned(length, size() - offset) <= 0;
    }

    int u16(long offset) {
        return Short.toUnsignedInt(segment.get(U16, offset));
    }

    /** An unsigned 32-bit value, widened. */
    long u32(long offset) {
        return Integer.toUnsignedLong(segment.get(U32, offset));
    }

    long u64(long offset) {
        return segment.get(U64, offset);
    }

    byte[] bytes(long offset, int length) {
        byte[] bytes = new byte[length];
        MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, offset, bytes, 0, length);
        return bytes;
    }

    MinidumpFormatException error(long offset, String what) {
        return new MinidumpFormatException(String.format("%s: %s at file offset 0x%x", path, what, offset), offset);
    }
}
