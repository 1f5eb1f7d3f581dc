package io.clrheap.emulator.calls;

import io.clrheap.memory.Memory;
import io.clrheap.memory.MemoryRange;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.memory.WritableMemory;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The process memory as one session of native calls sees it: the process's own bytes, copied page by page on the
 * first write (so a session never changes the process, and dumps written afterwards are the same), plus the pages
 * of the session's malloc arena. Reads outside the written pages go straight to the process.
 */
final class SessionMemory implements WritableMemory {

    static final int PAGE_SIZE = 4096;
    private static final long PAGE_MASK = PAGE_SIZE - 1;

    private final Memory process;
    /** Page address → its bytes: copies of process pages written to, and arena pages. Unsigned order. */
    private final TreeMap<Long, byte[]> pages = new TreeMap<>(Long::compareUnsigned);
    /** Arena pages: mapped only in the session. */
    private final TreeMap<Long, Boolean> arenaPages = new TreeMap<>(Long::compareUnsigned);
    /** The lowest and highest page written: reads outside them need no lookup. */
    private long lowPage = -1;
    private long highPage = 0;

    SessionMemory(Memory process) {
        this.process = process;
    }

    /** Maps zeroed arena pages over {@code [start, start + length)} (page aligned). */
    void mapArena(long start, long length) {
        for (long page = start & ~PAGE_MASK; Long.compareUnsigned(page, start + length) < 0; page += PAGE_SIZE) {
            if (!pages.containsKey(page)) {
                pages.put(page, new byte[PAGE_SIZE]);
                arenaPages.put(page, Boolean.TRUE);
                widen(page);
            }
        }
    }

    private void widen(long page) {
        if (lowPage == -1 || Long.compareUnsigned(page, lowPage) < 0) {
            lowPage = page;
        }
        if (Long.compareUnsigned(page, highPage) > 0) {
            highPage = page;
        }
    }

    private boolean mayBeWritten(long address, long length) {
        return lowPage != -1 && Long.compareUnsigned(address + length - 1, lowPage) >= 0
                && Long.compareUnsigned(address & ~PAGE_MASK, highPage) <= 0;
    }

    /** The page holding {@code address} as the session sees it, copied from the process first when {@code forWrite}. */
    private byte[] page(long address, boolean forWrite) {
        long page = address & ~PAGE_MASK;
        byte[] bytes = pages.get(page);
        if (bytes != null || !forWrite) {
            return bytes;
        }
        bytes = new byte[PAGE_SIZE];
        if (process.contains(page, PAGE_SIZE)) {
            process.read(page, bytes, 0, PAGE_SIZE);
        } else {
            for (int i = 0; i < PAGE_SIZE; i++) { // a partly mapped page: what is there
                if (process.contains(page + i, 1)) {
                    bytes[i] = process.readByte(page + i);
                }
            }
        }
        pages.put(page, bytes);
        widen(page);
        return bytes;
    }

    @Override
    public byte readByte(long address) {
        if (mayBeWritten(address, 1)) {
            byte[] p = page(address, false);
            if (p != null) {
                return p[(int) (address & PAGE_MASK)];
            }
        }
        return process.readByte(address);
    }

    @Override
    public short readShort(long address) {
        return (short) readLittleEndian(address, 2);
    }

    @Override
    public int readInt(long address) {
        return (int) readLittleEndian(address, 4);
    }

    @Override
    public long readLong(long address) {
        return readLittleEndian(address, 8);
    }

    private long readLittleEndian(long address, int size) {
        if (!mayBeWritten(address, size)) {
            return switch (size) {
                case 2 -> process.readShort(address);
                case 4 -> process.readInt(address);
                default -> process.readLong(address);
            };
        }
        long value = 0;
        for (int i = size - 1; i >= 0; i--) {
            value = (value << 8) | Byte.toUnsignedLong(readByte(address + i));
        }
        return value;
    }

    @Override
    public void read(long address, byte[] destination, int offset, int length) {
        if (!mayBeWritten(address, length)) {
            process.read(address, destination, offset, length);
            return;
        }
        for (int i = 0; i < length; i++) {
            destination[offset + i] = readByte(address + i);
        }
    }

    @Override
    public boolean contains(long address, long length) {
        if (length <= 0) {
            return length == 0;
        }
        if (!mayBeWritten(address, length)) {
            return process.contains(address, length);
        }
        for (long page = address & ~PAGE_MASK; Long.compareUnsigned(page, address + length) < 0; page += PAGE_SIZE) {
            long from = Math.max(page, address);
            long to = Math.min(page + PAGE_SIZE, address + length);
            if (!arenaPages.containsKey(page) && !process.contains(from, to - from)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public List<MemoryRange> ranges() {
        List<MemoryRange> all = new ArrayList<>(process.ranges());
        arenaPages.keySet().forEach(p -> all.add(new MemoryRange(p, PAGE_SIZE)));
        all.sort(null);
        List<MemoryRange> merged = new ArrayList<>();
        for (MemoryRange r : all) {
            MemoryRange last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && last.end() == r.start()) {
                merged.set(merged.size() - 1, new MemoryRange(last.start(), last.length() + r.length()));
            } else {
                merged.add(r);
            }
        }
        return merged;
    }

    @Override
    public String describe() {
        return process.describe() + " (native-call session)";
    }

    @Override
    public void writeByte(long address, byte value) {
        if (!arenaPages.containsKey(address & ~PAGE_MASK) && !process.contains(address, 1)) {
            throw new MissingMemoryException(address, 1, describe(), MissingMemoryException.Reason.NOT_MAPPED);
        }
        page(address, true)[(int) (address & PAGE_MASK)] = value;
    }

    @Override
    public void writeShort(long address, short value) {
        writeLittleEndian(address, value, 2);
    }

    @Override
    public void writeInt(long address, int value) {
        writeLittleEndian(address, value, 4);
    }

    @Override
    public void writeLong(long address, long value) {
        writeLittleEndian(address, value, 8);
    }

    private void writeLittleEndian(long address, long value, int size) {
        for (int i = 0; i < size; i++) {
            writeByte(address + i, (byte) (value >>> (8 * i)));
        }
    }

    @Override
    public void write(long address, byte[] source, int offset, int length) {
        for (int i = 0; i < length; i++) {
            writeByte(address + i, source[offset + i]);
        }
    }
}
