package io.clrheap.memory;

import java.util.List;

/**
 * A read-only, little-endian, 64-bit address space: what every memory source (a synthetic process image, an
 * ELF core, a minidump, a fixture bundle, a live process) looks like to the layout views and the walker.
 *
 * <p>Every read either returns the bytes at the address or throws {@link MissingMemoryException} naming the
 * address; a read never invents a zero.
 */
public interface Memory {

    byte readByte(long address);

    short readShort(long address);

    int readInt(long address);

    long readLong(long address);

    /** Copies {@code length} bytes starting at {@code address} into {@code destination[offset..]}. */
    void read(long address, byte[] destination, int offset, int length);

    /** True when every byte of {@code [address, address + length)} can be read. */
    boolean contains(long address, long length);

    /** The readable ranges, sorted by start address and not overlapping. */
    List<MemoryRange> ranges();

    /** A short name of this source for messages, e.g. the file name of a dump. */
    String describe();

    /**
     * A read-only view of the bytes present from {@code address} on, as far as this source holds them in one block
     * (byte 0 of the view is {@code address}; little-endian, like every read), or null when it has none there or keeps
     * no such blocks. For readers of many small values in a row (the object walk): reading the view skips the address
     * lookup every {@link #readLong} makes; what the view does not cover is read the ordinary way. By default null.
     */
    default java.lang.foreign.MemorySegment contiguous(long address) {
        return null;
    }

    default int readU8(long address) {
        return Byte.toUnsignedInt(readByte(address));
    }

    default int readU16(long address) {
        return Short.toUnsignedInt(readShort(address));
    }

    default long readU32(long address) {
        return Integer.toUnsignedLong(readInt(address));
    }

    /** Reads a target pointer (8 bytes on x64). */
    default long readPointer(long address) {
        return readLong(address);
    }

    /** The largest block {@link #readBytes} copies onto the Java heap; bigger blocks are read in pieces by callers. */
    int MAX_READ_BYTES = 64 << 20;

    /**
     * Copies {@code length} bytes into a new array. Checks the length and that the bytes are present before
     * allocating, so a corrupt length read from a dump cannot exhaust the Java heap.
     */
    default byte[] readBytes(long address, int length) {
        if (length < 0 || length > MAX_READ_BYTES) {
            throw new IllegalArgumentException(String.format("cannot read %d bytes at 0x%x from %s: at most %d at a time",
                    length, address, describe(), MAX_READ_BYTES));
        }
        if (!contains(address, length)) {
            readByte(address); // throws with the precise reason when the first or last byte is missing
            readByte(address + length - 1);
            throw new MissingMemoryException(address, length, describe(), MissingMemoryException.Reason.NOT_MAPPED);
        }
        byte[] bytes = new byte[length];
        read(address, bytes, 0, length);
        return bytes;
    }
}
