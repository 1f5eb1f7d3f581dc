package io.clrheap.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.List;

/**
 * One contiguous block of target memory at a fixed base address, backed by a {@link MemorySegment} (on or
 * off the Java heap, or a mapped file). Small targets in tests and benchmarks are built in one of these.
 */
public final class SegmentMemory implements WritableMemory {

    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final long base;
    private final MemorySegment segment;
    private final String name;

    public SegmentMemory(long base, MemorySegment segment, String name) {
        this.base = base;
        this.segment = segment;
        this.name = name;
        new MemoryRange(base, segment.byteSize()); // rejects a block that wraps past the top of the address space
    }

    /** A zero-filled block of {@code size} bytes at {@code base}, on the Java heap. */
    public static SegmentMemory allocate(long base, int size, String name) {
        return new SegmentMemory(base, MemorySegment.ofArray(new byte[size]), name);
    }

    /** A zero-filled off-heap block, freed when {@code arena} closes. */
    public static SegmentMemory allocate(long base, long size, Arena arena, String name) {
        return new SegmentMemory(base, arena.allocate(size, 8), name);
    }

    public long base() {
        return base;
    }

    public long size() {
        return segment.byteSize();
    }

    private long offset(long address, long length) {
        long offset = address - base;
        if (Long.compareUnsigned(offset, segment.byteSize()) >= 0
                || Long.compareUnsigned(length, segment.byteSize() - offset) > 0) {
            throw new MissingMemoryException(address, length, name, MissingMemoryException.Reason.NOT_MAPPED);
        }
        return offset;
    }

    @Override
    public byte readByte(long address) {
        return segment.get(ValueLayout.JAVA_BYTE, offset(address, 1));
    }

    @Override
    public short readShort(long address) {
        return segment.get(SHORT, offset(address, 2));
    }

    @Override
    public int readInt(long address) {
        return segment.get(INT, offset(address, 4));
    }

    @Override
    public long readLong(long address) {
        return segment.get(LONG, offset(address, 8));
    }

    @Override
    public void read(long address, byte[] destination, int offset, int length) {
        MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, offset(address, length), destination, offset, length);
    }

    @Override
    public boolean contains(long address, long length) {
        long offset = address - base;
        return Long.compareUnsigned(offset, segment.byteSize()) < 0
                && Long.compareUnsigned(length, segment.byteSize() - offset) <= 0;
    }

    @Override
    public List<MemoryRange> ranges() {
        return List.of(new MemoryRange(base, segment.byteSize()));
    }

    @Override
    public String describe() {
        return name;
    }

    @Override
    public void writeByte(long address, byte value) {
        segment.set(ValueLayout.JAVA_BYTE, offset(address, 1), value);
    }

    @Override
    public void writeShort(long address, short value) {
        segment.set(SHORT, offset(address, 2), value);
    }

    @Override
    public void writeInt(long address, int value) {
        segment.set(INT, offset(address, 4), value);
    }

    @Override
    public void writeLong(long address, long value) {
        segment.set(LONG, offset(address, 8), value);
    }

    @Override
    public void write(long address, byte[] source, int offset, int length) {
        MemorySegment.copy(source, offset, segment, ValueLayout.JAVA_BYTE, offset(address, length), length);
    }
}
