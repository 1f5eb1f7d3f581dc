package io.clrheap.emulator.space;

import io.clrheap.memory.MemoryRange;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.memory.WritableMemory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A sparse, writable 64-bit address space: named reservations, backed by 64 KiB chunks allocated on first write.
 * Untouched memory inside a reservation reads as zero (committed, never written); memory outside every
 * reservation is not mapped. Nothing is allocated for untouched memory, so a multi-GiB heap costs what its
 * objects cost. Built by one thread; once built, any number of threads may read it at once.
 */
public final class AddressSpace implements WritableMemory {

    static final int CHUNK_SHIFT = 16;
    static final int CHUNK_SIZE = 1 << CHUNK_SHIFT;
    private static final long CHUNK_MASK = CHUNK_SIZE - 1;

    private final String name;
    private final TreeMap<Long, Reservation> reservations = new TreeMap<>(Long::compareUnsigned);
    private final Map<Long, byte[]> chunks = new HashMap<>();
    /** The last chunk touched (most accesses are sequential); one reference, so threads reading at once see a consistent pair. */
    private Chunk last = new Chunk(-1, null);

    private record Chunk(long index, byte[] bytes) {
    }

    public AddressSpace(String name) {
        this.name = name;
    }

    /** Reserves {@code [start, start + size)} under {@code name}; reservations may not overlap. */
    public Reservation reserve(String rangeName, long start, long size) {
        Reservation r = new Reservation(rangeName, start, size);
        var below = reservations.floorEntry(start);
        var above = reservations.ceilingEntry(start);
        if ((below != null && Long.compareUnsigned(below.getValue().end(), start) > 0)
                || (above != null && Long.compareUnsigned(above.getKey(), r.end()) < 0)) {
            throw new IllegalArgumentException(String.format("reservation %s [0x%x, 0x%x) overlaps %s", rangeName, start, r.end(),
                    below != null && Long.compareUnsigned(below.getValue().end(), start) > 0 ? below.getValue().name() : above.getValue().name()));
        }
        reservations.put(start, r);
        return r;
    }

    public List<Reservation> reservations() {
        return List.copyOf(reservations.values());
    }

    /**
     * The memory written so far, as ranges in address order (what a dump of this space holds): the written chunks,
     * clipped to the reservations they lie in, adjacent pieces joined.
     */
    public List<MemoryRange> touchedRanges() {
        List<Long> indexes = new ArrayList<>(chunks.keySet());
        indexes.sort(Long::compareUnsigned);
        List<MemoryRange> ranges = new ArrayList<>();
        long start = 0;
        long end = 0;
        boolean open = false;
        for (long index : indexes) {
            long chunkStart = index << CHUNK_SHIFT;
            long chunkEnd = chunkStart + CHUNK_SIZE;
            var first = reservations.floorKey(chunkStart);
            var candidates = reservations.subMap(first == null ? chunkStart : first, true, chunkEnd, false).values();
            for (Reservation r : candidates) {
                long a = Long.compareUnsigned(r.start(), chunkStart) > 0 ? r.start() : chunkStart;
                long b = Long.compareUnsigned(r.end(), chunkEnd) < 0 ? r.end() : chunkEnd;
                if (Long.compareUnsigned(a, b) >= 0) {
                    continue;
                }
                if (open && a == end) {
                    end = b;
                    continue;
                }
                if (open) {
                    ranges.add(new MemoryRange(start, end - start));
                }
                start = a;
                end = b;
                open = true;
            }
        }
        if (open) {
            ranges.add(new MemoryRange(start, end - start));
        }
        return ranges;
    }

    /** Bytes of chunks allocated: the memory this space really uses. */
    public long allocatedBytes() {
        return (long) chunks.size() * CHUNK_SIZE;
    }

    private void check(long address, long length) {
        var r = reservations.floorEntry(address);
        if (r == null || !r.getValue().contains(address, length)) {
            throw new MissingMemoryException(address, length, name, MissingMemoryException.Reason.NOT_MAPPED);
        }
    }

    /** The chunk holding {@code address}; null when never written (reads as zero) unless {@code create}. */
    private byte[] chunk(long address, boolean create) {
        long index = address >>> CHUNK_SHIFT;
        Chunk cached = last;
        if (cached.index() == index) {
            return cached.bytes();
        }
        byte[] c = chunks.get(index);
        if (c == null) {
            if (!create) {
                return null;
            }
            c = new byte[CHUNK_SIZE];
            chunks.put(index, c);
        }
        last = new Chunk(index, c);
        return c;
    }

    private long readLittleEndian(long address, int size) {
        check(address, size);
        int offset = (int) (address & CHUNK_MASK);
        if (offset + size <= CHUNK_SIZE) {
            byte[] c = chunk(address, false);
            if (c == null) {
                return 0;
            }
            long v = 0;
            for (int i = size - 1; i >= 0; i--) {
                v = (v << 8) | (c[offset + i] & 0xffL);
            }
            return v;
        }
        long v = 0;
        for (int i = size - 1; i >= 0; i--) {
            byte[] c = chunk(address + i, false);
            v = (v << 8) | (c == null ? 0 : c[(int) ((address + i) & CHUNK_MASK)] & 0xffL);
        }
        return v;
    }

    private void writeLittleEndian(long address, int size, long value) {
        check(address, size);
        for (int i = 0; i < size; i++) {
            long a = address + i;
            chunk(a, true)[(int) (a & CHUNK_MASK)] = (byte) (value >>> (8 * i));
        }
    }

    @Override
    public byte readByte(long address) {
        return (byte) readLittleEndian(address, 1);
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

    @Override
    public void read(long address, byte[] destination, int offset, int length) {
        check(address, length);
        int done = 0;
        while (done < length) {
            long a = address + done;
            int inChunk = (int) Math.min(length - done, CHUNK_SIZE - (a & CHUNK_MASK));
            byte[] c = chunk(a, false);
            if (c == null) {
                java.util.Arrays.fill(destination, offset + done, offset + done + inChunk, (byte) 0);
            } else {
                System.arraycopy(c, (int) (a & CHUNK_MASK), destination, offset + done, inChunk);
            }
            done += inChunk;
        }
    }

    @Override
    public boolean contains(long address, long length) {
        var r = reservations.floorEntry(address);
        return r != null && r.getValue().contains(address, length);
    }

    @Override
    public List<MemoryRange> ranges() {
        return reservations.values().stream().map(r -> new MemoryRange(r.start(), r.size())).toList();
    }

    @Override
    public String describe() {
        return name;
    }

    @Override
    public void writeByte(long address, byte value) {
        writeLittleEndian(address, 1, value);
    }

    @Override
    public void writeShort(long address, short value) {
        writeLittleEndian(address, 2, value);
    }

    @Override
    public void writeInt(long address, int value) {
        writeLittleEndian(address, 4, value);
    }

    @Override
    public void writeLong(long address, long value) {
        if ((address & CHUNK_MASK) <= CHUNK_SIZE - 8) {
            check(address, 8);
            byte[] c = chunk(address, true);
            int o = (int) (address & CHUNK_MASK);
            for (int i = 0; i < 8; i++) {
                c[o + i] = (byte) (value >>> (8 * i));
            }
            return;
        }
        writeLittleEndian(address, 8, value);
    }

    @Override
    public void write(long address, byte[] source, int offset, int length) {
        check(address, length);
        int done = 0;
        while (done < length) {
            long a = address + done;
            int inChunk = (int) Math.min(length - done, CHUNK_SIZE - (a & CHUNK_MASK));
            System.arraycopy(source, offset + done, chunk(a, true), (int) (a & CHUNK_MASK), inChunk);
            done += inChunk;
        }
    }
}
