package io.clrheap.emulator.space;

import io.clrheap.memory.MemoryRange;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.memory.WritableMemory;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A sparse, writable 64-bit address space: named reservations, backed by 64 KiB chunks of native memory taken on
 * first write ({@link NativeChunks}). Untouched memory inside a reservation reads as zero (committed, never written);
 * memory outside every reservation is not mapped. Nothing is allocated for untouched memory, and what is written
 * lives outside the Java heap (freed with the space), so a multi-GiB heap costs the Java heap only its chunk
 * directory. Built by one thread; once built, any number of threads may read it at once.
 */
public final class AddressSpace implements WritableMemory {

    static final int CHUNK_SHIFT = 16;
    static final int CHUNK_SIZE = 1 << CHUNK_SHIFT;
    private static final long CHUNK_MASK = CHUNK_SIZE - 1;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Chunks per directory page: a page covers 256 MiB of addresses (64 regions of 4 MiB). */
    private static final int PAGE_SHIFT = 12;
    private static final int PAGE_MASK = (1 << PAGE_SHIFT) - 1;

    private final String name;
    /** Native memory of the chunks: freed when this space is no longer reachable. */
    private final NativeChunks nativeChunks = new NativeChunks(CHUNK_SIZE);
    private final TreeMap<Long, Reservation> reservations = new TreeMap<>(Long::compareUnsigned);
    /** Chunk index >>> 12 → the chunks of that page (null where never written): two array reads per access, not a hash lookup. */
    private final Map<Long, MemorySegment[]> directory = new HashMap<>();
    private long chunkCount;
    /**
     * The directory pages touched last, one slot per page index modulo {@link #PAGE_CACHE}: a chunk is found with
     * two array reads, no hash look-up and no allocation, also when accesses alternate between regions of several
     * heaps that lie in neighbouring pages. Each slot is one reference to an immutable pair, so threads reading at
     * once see consistent pairs. (A cache of the last chunk alone, replaced on every change of chunk, allocated a
     * record per switch: a build that places objects on 4 heaps in turn switched chunks at nearly every write, some
     * 20 M records per GiB-sized build; and one last page went back to the hash map whenever those heaps' regions lay
     * on both sides of a page boundary.)
     */
    private final Page[] pageCache = new Page[PAGE_CACHE];
    private static final int PAGE_CACHE = 16;
    /** The last reservation an access fell in: most accesses stay in one. */
    private Reservation lastReservation;

    private record Page(long index, MemorySegment[] chunks) {
    }

    /** The most memory written before building is refused: a mistaken scenario fails with a message, not the machine. */
    private final long budget;

    public AddressSpace(String name) {
        this(name, Long.MAX_VALUE);
    }

    /** A space that refuses to write more than {@code budget} bytes of chunks. */
    public AddressSpace(String name, long budget) {
        this.name = name;
        this.budget = budget;
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
        List<Long> indexes = new ArrayList<>();
        directory.forEach((page, chunks) -> {
            for (int i = 0; i < chunks.length; i++) {
                if (chunks[i] != null) {
                    indexes.add((page << PAGE_SHIFT) | i);
                }
            }
        });
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
        return chunkCount * CHUNK_SIZE;
    }

    private void check(long address, long length) {
        Reservation cached = lastReservation;
        if (cached != null && cached.contains(address, length)) {
            return;
        }
        var r = reservations.floorEntry(address);
        if (r == null || !r.getValue().contains(address, length)) {
            throw new MissingMemoryException(address, length, name, MissingMemoryException.Reason.NOT_MAPPED);
        }
        lastReservation = r.getValue();
    }

    /** The chunk holding {@code address}; null when never written (reads as zero) unless {@code create}. */
    private MemorySegment chunk(long address, boolean create) {
        long index = address >>> CHUNK_SHIFT;
        long pageIndex = index >>> PAGE_SHIFT;
        int slot = (int) (pageIndex & (PAGE_CACHE - 1));
        Page page = pageCache[slot];
        if (page == null || page.index() != pageIndex) {
            MemorySegment[] chunks = directory.get(pageIndex);
            if (chunks == null) {
                if (!create) {
                    return null;
                }
                chunks = new MemorySegment[1 << PAGE_SHIFT];
                directory.put(pageIndex, chunks);
            }
            page = new Page(pageIndex, chunks);
            pageCache[slot] = page;
        }
        MemorySegment c = page.chunks()[(int) (index & PAGE_MASK)];
        if (c == null) {
            if (!create) {
                return null;
            }
            if ((chunkCount + 1) * CHUNK_SIZE > budget) {
                throw new IllegalStateException(String.format("%s: writing 0x%x would take more than its memory budget of %,d MiB",
                        name, address, budget >> 20));
            }
            c = nativeChunks.allocate(); // zeroed: committed memory the process never wrote reads as zero
            page.chunks()[(int) (index & PAGE_MASK)] = c;
            chunkCount++;
        }
        return c;
    }

    /** Bytes from {@code address} to the end of its chunk. */
    private static long roomInChunk(long address) {
        return CHUNK_SIZE - (address & CHUNK_MASK);
    }

    private long readSlow(long address, int size) {
        long v = 0;
        for (int i = size - 1; i >= 0; i--) {
            MemorySegment c = chunk(address + i, false);
            v = (v << 8) | (c == null ? 0 : c.get(ValueLayout.JAVA_BYTE, (address + i) & CHUNK_MASK) & 0xffL);
        }
        return v;
    }

    private void writeSlow(long address, int size, long value) {
        for (int i = 0; i < size; i++) {
            long a = address + i;
            chunk(a, true).set(ValueLayout.JAVA_BYTE, a & CHUNK_MASK, (byte) (value >>> (8 * i)));
        }
    }

    @Override
    public byte readByte(long address) {
        check(address, 1);
        MemorySegment c = chunk(address, false);
        return c == null ? 0 : c.get(ValueLayout.JAVA_BYTE, address & CHUNK_MASK);
    }

    @Override
    public short readShort(long address) {
        check(address, 2);
        if (roomInChunk(address) < 2) {
            return (short) readSlow(address, 2);
        }
        MemorySegment c = chunk(address, false);
        return c == null ? 0 : c.get(SHORT, address & CHUNK_MASK);
    }

    @Override
    public int readInt(long address) {
        check(address, 4);
        if (roomInChunk(address) < 4) {
            return (int) readSlow(address, 4);
        }
        MemorySegment c = chunk(address, false);
        return c == null ? 0 : c.get(INT, address & CHUNK_MASK);
    }

    @Override
    public long readLong(long address) {
        check(address, 8);
        if (roomInChunk(address) < 8) {
            return readSlow(address, 8);
        }
        MemorySegment c = chunk(address, false);
        return c == null ? 0 : c.get(LONG, address & CHUNK_MASK);
    }

    @Override
    public void read(long address, byte[] destination, int offset, int length) {
        check(address, length);
        int done = 0;
        while (done < length) {
            long a = address + done;
            int inChunk = (int) Math.min(length - done, roomInChunk(a));
            MemorySegment c = chunk(a, false);
            if (c == null) {
                java.util.Arrays.fill(destination, offset + done, offset + done + inChunk, (byte) 0);
            } else {
                MemorySegment.copy(c, ValueLayout.JAVA_BYTE, a & CHUNK_MASK, destination, offset + done, inChunk);
            }
            done += inChunk;
        }
    }

    /**
     * The written chunk holding {@code address}, read-only, from {@code address} to the end of the chunk or of the
     * reservation, whichever comes first; null outside every reservation and where the chunk was never written (that
     * memory reads as zero through {@link #read}).
     */
    @Override
    public MemorySegment contiguous(long address) {
        var r = reservations.floorEntry(address);
        if (r == null || !r.getValue().contains(address, 1)) {
            return null;
        }
        MemorySegment c = chunk(address, false);
        if (c == null) {
            return null;
        }
        long offset = address & CHUNK_MASK;
        long length = Math.min(CHUNK_SIZE - offset, r.getValue().end() - address);
        return c.asSlice(offset, length).asReadOnly();
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
        check(address, 1);
        chunk(address, true).set(ValueLayout.JAVA_BYTE, address & CHUNK_MASK, value);
    }

    @Override
    public void writeShort(long address, short value) {
        check(address, 2);
        if (roomInChunk(address) < 2) {
            writeSlow(address, 2, value);
        } else {
            chunk(address, true).set(SHORT, address & CHUNK_MASK, value);
        }
    }

    @Override
    public void writeInt(long address, int value) {
        check(address, 4);
        if (roomInChunk(address) < 4) {
            writeSlow(address, 4, value);
        } else {
            chunk(address, true).set(INT, address & CHUNK_MASK, value);
        }
    }

    @Override
    public void writeLong(long address, long value) {
        check(address, 8);
        if (roomInChunk(address) < 8) {
            writeSlow(address, 8, value);
        } else {
            chunk(address, true).set(LONG, address & CHUNK_MASK, value);
        }
    }

    @Override
    public void write(long address, byte[] source, int offset, int length) {
        check(address, length);
        int done = 0;
        while (done < length) {
            long a = address + done;
            int inChunk = (int) Math.min(length - done, roomInChunk(a));
            MemorySegment.copy(source, offset + done, chunk(a, true), ValueLayout.JAVA_BYTE, a & CHUNK_MASK, inChunk);
            done += inChunk;
        }
    }
}
