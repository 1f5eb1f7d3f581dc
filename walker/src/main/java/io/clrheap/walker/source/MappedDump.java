package io.clrheap.walker.source;

import io.clrheap.memory.Memory;
import io.clrheap.memory.MemoryRange;
import java.util.List;

/**
 * A dump file whose process memory is read through {@link RangeMemory}: the ELF core, the minidump and the fixture
 * bundle differ in how they find their ranges, not in how they read them.
 */
public abstract class MappedDump implements Memory {

    private final RangeMemory memory;

    protected MappedDump(RangeMemory memory) {
        this.memory = memory;
    }

    @Override
    public final byte readByte(long address) {
        return memory.readByte(address);
    }

    @Override
    public final short readShort(long address) {
        return memory.readShort(address);
    }

    @Override
    public final int readInt(long address) {
        return memory.readInt(address);
    }

    @Override
    public final long readLong(long address) {
        return memory.readLong(address);
    }

    @Override
    public final void read(long address, byte[] destination, int offset, int length) {
        memory.read(address, destination, offset, length);
    }

    @Override
    public final java.lang.foreign.MemorySegment contiguous(long address) {
        return memory.contiguous(address);
    }

    @Override
    public final boolean contains(long address, long length) {
        return memory.contains(address, length);
    }

    @Override
    public final List<MemoryRange> ranges() {
        return memory.ranges();
    }

    @Override
    public String describe() {
        return memory.describe();
    }
}
