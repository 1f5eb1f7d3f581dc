package io.clrheap.golden.real;

import io.clrheap.memory.Memory;
import io.clrheap.memory.MemoryRange;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A real dump's memory with a few bytes changed: how the tests plant corruption in real data. */
public final class PatchedMemory implements Memory {

    private final Memory inner;
    private final TreeMap<Long, Byte> patches = new TreeMap<>(Long::compareUnsigned);

    public PatchedMemory(Memory inner) {
        this.inner = inner;
    }

    public PatchedMemory putLong(long address, long value) {
        for (int i = 0; i < 8; i++) {
            patches.put(address + i, (byte) (value >>> (8 * i)));
        }
        return this;
    }

    public PatchedMemory putByte(long address, byte value) {
        patches.put(address, value);
        return this;
    }

    public PatchedMemory putInt(long address, int value) {
        for (int i = 0; i < 4; i++) {
            patches.put(address + i, (byte) (value >>> (8 * i)));
        }
        return this;
    }

    private long read(long address, int n) {
        byte[] b = new byte[n];
        read(address, b, 0, n);
        long v = 0;
        for (int i = n - 1; i >= 0; i--) {
            v = (v << 8) | (b[i] & 0xff);
        }
        return v;
    }

    @Override
    public byte readByte(long address) {
        return (byte) read(address, 1);
    }

    @Override
    public short readShort(long address) {
        return (short) read(address, 2);
    }

    @Override
    public int readInt(long address) {
        return (int) read(address, 4);
    }

    @Override
    public long readLong(long address) {
        return read(address, 8);
    }

    @Override
    public void read(long address, byte[] destination, int offset, int length) {
        inner.read(address, destination, offset, length);
        Map<Long, Byte> hit = patches.subMap(address, true, address + length - 1, true);
        for (var e : hit.entrySet()) {
            destination[offset + (int) (e.getKey() - address)] = e.getValue();
        }
    }

    @Override
    public boolean contains(long address, long length) {
        return inner.contains(address, length);
    }

    @Override
    public List<MemoryRange> ranges() {
        return inner.ranges();
    }

    @Override
    public String describe() {
        return inner.describe() + " (patched)";
    }
}
