package io.clrheap.walker.symbols;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * An ELF image read from its file, memory-mapped (never read whole onto the heap). The mapping belongs to an
 * automatic arena: it is unmapped when the symbols that use it are garbage collected. Link-time addresses are
 * translated to file offsets through the {@code PT_LOAD} segments.
 */
final class FileImage implements ImageBytes {

    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final Path path;
    private final MemorySegment file;
    private final long base;
    private List<ElfLoad> loads = List.of();
    private long bias;

    private FileImage(Path path, MemorySegment file, long base) {
        this.path = path;
        this.file = file;
        this.base = base;
        this.bias = base;
    }

    static FileImage map(Path path, long base) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            return new FileImage(path, channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), Arena.ofAuto()), base);
        }
    }

    @Override
    public long atFileOffset(long offset) {
        return offset;
    }

    @Override
    public void useLoadSegments(List<ElfLoad> loads) {
        this.loads = List.copyOf(loads);
        bias = ElfLoad.bias(base, loads);
    }

    @Override
    public long bias() {
        return bias;
    }

    @Override
    public long atLinkAddress(long address, String what) throws ModuleFormatException {
        for (ElfLoad load : loads) {
            if (load.holdsInFile(address, 1)) {
                return load.offset() + (address - load.vaddr());
            }
        }
        throw new ModuleFormatException(String.format(
                "%s: %s at link address 0x%x is in no PT_LOAD segment's file bytes", path, what, address));
    }

    @Override
    public long atDynamicPointer(long pointer, String what) throws ModuleFormatException {
        return atLinkAddress(pointer, what); // a file on disk holds link-time values
    }

    @Override
    public void require(long location, long length, String what) throws ModuleFormatException {
        if (Long.compareUnsigned(location, file.byteSize()) > 0
                || Long.compareUnsigned(length, file.byteSize() - location) > 0) {
            throw error(location, String.format("%s (0x%x bytes) runs past the end of the file (0x%x bytes)",
                    what, length, file.byteSize()));
        }
    }

    @Override
    public void requireTable(long location, long length, String what) throws ModuleFormatException {
        require(location, length, what);
    }

    @Override
    public int u8(long location) throws ModuleFormatException {
        require(location, 1, "a byte");
        return Byte.toUnsignedInt(file.get(ValueLayout.JAVA_BYTE, location));
    }

    @Override
    public int u16(long location) throws ModuleFormatException {
        require(location, 2, "a 16-bit value");
        return Short.toUnsignedInt(file.get(U16, location));
    }

    @Override
    public long u32(long location) throws ModuleFormatException {
        require(location, 4, "a 32-bit value");
        return Integer.toUnsignedLong(file.get(U32, location));
    }

    @Override
    public long u64(long location) throws ModuleFormatException {
        require(location, 8, "a 64-bit value");
        return file.get(U64, location);
    }

    @Override
    public byte[] bytes(long location, int length) throws ModuleFormatException {
        require(location, length, "a string");
        byte[] bytes = new byte[length];
        MemorySegment.copy(file, ValueLayout.JAVA_BYTE, location, bytes, 0, length);
        return bytes;
    }

    @Override
    public String name() {
        return path.toString();
    }

    @Override
    public String where(long location) {
        return String.format("file offset 0x%x", location);
    }
}
