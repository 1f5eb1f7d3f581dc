package io.clrheap.memory;

/** A {@link Memory} that can also be written: what the emulator builds a process image in. */
public interface WritableMemory extends Memory {

    void writeByte(long address, byte value);

    void writeShort(long address, short value);

    void writeInt(long address, int value);

    void writeLong(long address, long value);

    void write(long address, byte[] source, int offset, int length);

    default void writePointer(long address, long value) {
        writeLong(address, value);
    }
}
