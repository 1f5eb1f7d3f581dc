package io.clrheap.walker.source.elf;

import io.clrheap.walker.source.DumpFormatException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The mapped bytes of a core file, read little endian by file offset. Parsing code calls {@link #require} before
 * reading any structure, so a structure that runs past the end of the file is a {@link DumpFormatException} naming
 * the offset, never a raw {@link IndexOutOfBoundsException} from the segment.
 */
final class CoreBytes {

    static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final MemorySegment segment;
    private final Path path;

    CoreBytes(MemorySegment segment, Path path) {
        this.segment = segment;
        this.path = path;
    }

    MemorySegment segment() {
        return segment;
    }

    long size() {
        return segment.byteSize();
    }

    Path path() {
        return path;
    }

    /** Throws unless {@code [offset, offset + length)} (unsigned 64-bit values) lies inside the file. */
    void require(long offset, long length, String what) throws DumpFormatException {
        if (!inside(offset, length)) {
            throw error(offset, String.format("%s needs 0x%x bytes at 0x%x, past the end of the file (0x%x bytes)",
                    what, length, offset, size()));
        }
    }

    /** True when {@code [offset, offset + length)}, both read as unsigned, lies inside the file. */
    boolean inside(long offset, long length) {
        return Long.compareUnsigned(offset, size()) <= 0 && Long.compareUnsigned(length, size() - offset) <= 0;
    }

    int u8(long offset) {
        return Byte.toUnsignedInt(segment.get(ValueLayout.JAVA_BYTE, offset));
    }

    int u16(long offset) {
        return Short.toUnsignedInt(segment.get(U16, offset));
    }

    /** An unsigned 32-bit value, widened. */
    long u32(long offset) {
        return Integer.toUnsignedLong(segment.get(U32, offset));
    }

    int s32(long offset) {
        return segment.get(U32, offset);
    }

    long u64(long offset) {
        return segment.get(U64, offset);
    }

    /** The bytes {@code [from, to)}, already checked to be inside the file and short (a name, a path). */
    String string(long from, long to) {
        byte[] bytes = new byte[Math.toIntExact(to - from)];
        MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, from, bytes, 0, bytes.length);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** The offset of the first NUL byte in {@code [from, to)}, or -1. */
    long indexOfNul(long from, long to) {
        for (long i = from; i < to; i++) {
            if (segment.get(ValueLayout.JAVA_BYTE, i) == 0) {
                return i;
            }
        }
        return -1;
    }

    DumpFormatException error(long offset, String what) {
        return new DumpFormatException(String.format("%s: %s at file offset 0x%x", path, what, offset));
    }
}
