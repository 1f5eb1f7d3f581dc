package io.clrheap.walker.symbols;

import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import java.util.List;

/**
 * An ELF image as the dynamic loader mapped it in a process, read from the process's (or its dump's) memory: the
 * file-offset-0 mapping starts at {@code base}, so file offset {@code o} of the headers is at {@code base + o}.
 */
final class MemoryImage implements ImageBytes {

    private final Memory memory;
    private final long base;
    private long bias;

    MemoryImage(Memory memory, long base) {
        this.memory = memory;
        this.base = base;
        this.bias = base;
    }

    @Override
    public long atFileOffset(long offset) {
        return base + offset;
    }

    @Override
    public void useLoadSegments(List<ElfLoad> loads) {
        bias = ElfLoad.bias(base, loads);
    }

    @Override
    public long bias() {
        return bias;
    }

    @Override
    public long atLinkAddress(long address, String what) {
        return bias + address;
    }

    /**
     * ld.so rebases the {@code d_ptr} entries of a loaded image's dynamic section to absolute addresses (glibc
     * elf/get-dynamic-info.h: {@code ADJUST_DYN_INFO} adds {@code l_addr}); seen in the real .NET 9 and 10 dumps
     * (docs/reference/discovery.md §2). A value below the base cannot be an address inside the image, so it is still link-time.
     */
    @Override
    public long atDynamicPointer(long pointer, String what) {
        return Long.compareUnsigned(pointer, base) < 0 ? bias + pointer : pointer;
    }

    @Override
    public void require(long location, long length, String what) {
        if (length == 0 || memory.contains(location, length)) {
            return;
        }
        memory.readByte(location); // throws with the reason when the first byte is missing
        memory.readByte(location + length - 1);
        throw new MissingMemoryException(location, length, memory.describe(),
                MissingMemoryException.Reason.NOT_CAPTURED); // both ends are there: a hole in between
    }

    @Override
    public void requireTable(long location, long length, String what) {
        // see ImageBytes: a dump may hold only the pages of a table that were touched
    }

    @Override
    public int u8(long location) {
        return memory.readU8(location);
    }

    @Override
    public int u16(long location) {
        return memory.readU16(location);
    }

    @Override
    public long u32(long location) {
        return memory.readU32(location);
    }

    @Override
    public long u64(long location) {
        return memory.readLong(location);
    }

    @Override
    public byte[] bytes(long location, int length) {
        return memory.readBytes(location, length);
    }

    @Override
    public String name() {
        return String.format("the module mapped at 0x%x in %s", base, memory.describe());
    }

    @Override
    public String where(long location) {
        return String.format("0x%x", location);
    }
}
