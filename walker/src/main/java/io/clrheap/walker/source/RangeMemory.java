package io.clrheap.walker.source;

import io.clrheap.memory.Memory;
import io.clrheap.memory.MemoryRange;
import io.clrheap.memory.MissingMemoryException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The memory of a dump file: address ranges, sorted and not overlapping, whose bytes lie at offsets of one mapped
 * file (an ELF core's PT_LOADs, a minidump's memory lists, a bundle's extracted entries). A range may hold fewer
 * bytes than it spans (an ELF PT_LOAD with {@code p_filesz < p_memsz}): the rest was not captured, and reading it
 * throws {@link MissingMemoryException} saying so, as does reading outside every range. Reads are bounds-checked
 * against the file: a range never lies past its end (the readers check that when they open it).
 */
public final class RangeMemory implements Memory {

    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /**
     * One range.
     *
     * @param start   its first address
     * @param length  the bytes of address space it spans
     * @param present the bytes of it the file holds, from its start (at most {@code length})
     * @param offset  where in the file its first byte is
     */
    public record Range(long start, long length, long present, long offset) {
        public Range {
            if (Long.compareUnsigned(present, length) > 0) {
                throw new IllegalArgumentException(String.format("range 0x%x: %d bytes present of %d", start, present, length));
            }
        }
    }

    private final String name;
    private final MemorySegment file;
    private final long[] starts;
    private final long[] lengths;
    private final long[] present;
    private final long[] offsets;
    private final List<MemoryRange> ranges;
    /** The last range hit (reads cluster): a plain int, so threads reading at once only lose the shortcut. */
    private int lastHit;

    /** @param sorted ranges in ascending address order, not overlapping */
    public RangeMemory(String name, MemorySegment file, List<Range> sorted) {
        this.name = name;
        this.file = file;
        int n = sorted.size();
        starts = new long[n];
        lengths = new long[n];
        present = new long[n];
        offsets = new long[n];
        for (int i = 0; i < n; i++) {
            Range r = sorted.get(i);
            starts[i] = r.start();
            lengths[i] = r.length();
            present[i] = r.present();
            offsets[i] = r.offset();
        }
        ranges = coalescePresent();
    }

    /** The present bytes as ranges, neighbours joined. */
    private List<MemoryRange> coalescePresent() {
        List<MemoryRange> result = new ArrayList<>();
        long start = 0;
        long end = 0;
        boolean open = false;
        for (int i = 0; i < starts.length; i++) {
            if (present[i] == 0) {
                continue;
            }
            if (open && end == starts[i]) {
                end = starts[i] + present[i];
                continue;
            }
            if (open) {
                result.add(new MemoryRange(start, end - start));
            }
            start = starts[i];
            end = starts[i] + present[i];
            open = true;
        }
        if (open) {
            result.add(new MemoryRange(start, end - start));
        }
        return List.copyOf(result);
    }

    /** The index of the range whose span holds {@code address}, or -1. */
    private int indexOf(long address) {
        int hit = lastHit;
        if (hit < starts.length && Long.compareUnsigned(address - starts[hit], lengths[hit]) < 0) {
            return hit;
        }
        int low = 0;
        int high = starts.length - 1;
        int found = -1;
        while (low <= high) { // the last range starting at or below the address
            int mid = (low + high) >>> 1;
            if (Long.compareUnsigned(starts[mid], address) <= 0) {
                found = mid;
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        if (found < 0 || Long.compareUnsigned(address - starts[found], lengths[found]) >= 0) {
            return -1;
        }
        lastHit = found;
        return found;
    }

    /** The file offset of {@code [address, address + length)} when one range holds all of it in the file, else -1. */
    private long fileOffset(long address, int length) {
        int i = indexOf(address);
        if (i < 0) {
            return -1;
        }
        long inRange = address - starts[i];
        if (Long.compareUnsigned(inRange, present[i]) >= 0 || length > present[i] - inRange) {
            return -1;
        }
        return offsets[i] + inRange;
    }

    private MissingMemoryException missing(long address, long length, long firstMissing) {
        MissingMemoryException.Reason reason = indexOf(firstMissing) >= 0
                ? MissingMemoryException.Reason.NOT_CAPTURED
                : MissingMemoryException.Reason.NOT_MAPPED;
        return new MissingMemoryException(address, length, name, reason);
    }

    /** The file's bytes of the range holding {@code address}, from it to the end of the range's present bytes. */
    @Override
    public MemorySegment contiguous(long address) {
        int i = indexOf(address);
        if (i < 0) {
            return null;
        }
        long inRange = address - starts[i];
        if (Long.compareUnsigned(inRange, present[i]) >= 0) {
            return null;
        }
        return file.asSlice(offsets[i] + inRange, present[i] - inRange).asReadOnly();
    }

    @Override
    public byte readByte(long address) {
        long at = fileOffset(address, 1);
        if (at < 0) {
            throw missing(address, 1, address);
        }
        return file.get(ValueLayout.JAVA_BYTE, at);
    }

    @Override
    public short readShort(long address) {
        long at = fileOffset(address, 2);
        return at >= 0 ? file.get(U16, at) : (short) readSpanning(address, 2);
    }

    @Override
    public int readInt(long address) {
        long at = fileOffset(address, 4);
        return at >= 0 ? file.get(U32, at) : (int) readSpanning(address, 4);
    }

    @Override
    public long readLong(long address) {
        long at = fileOffset(address, 8);
        return at >= 0 ? file.get(U64, at) : readSpanning(address, 8);
    }

    /** A little-endian value whose bytes span ranges (or are missing: then this throws). */
    private long readSpanning(long address, int length) {
        byte[] bytes = new byte[length];
        read(address, bytes, 0, length);
        long value = 0;
        for (int i = length - 1; i >= 0; i--) {
            value = (value << 8) | Byte.toUnsignedLong(bytes[i]);
        }
        return value;
    }

    @Override
    public void read(long address, byte[] destination, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, destination.length);
        long available = presentPrefix(address, length);
        if (available < length) {
            throw missing(address, length, address + available);
        }
        long at = address;
        int done = 0;
        while (done < length) {
            int i = indexOf(at);
            long inRange = at - starts[i];
            int chunk = (int) Math.min(length - done, present[i] - inRange);
            MemorySegment.copy(file, ValueLayout.JAVA_BYTE, offsets[i] + inRange, destination, offset + done, chunk);
            done += chunk;
            at += chunk;
        }
    }

    /**
     * How many bytes from {@code address} on, up to {@code length}, the file holds: ranges continue a run only when
     * one starts exactly where the previous one's present bytes end. A span that wraps past the top of the address
     * space has none.
     */
    private long presentPrefix(long address, long length) {
        if (length != 0 && Long.compareUnsigned(address + length, address) < 0 && address + length != 0) {
            return 0;
        }
        long at = address;
        long counted = 0;
        while (true) {
            int i = indexOf(at);
            if (i < 0) {
                return counted;
            }
            long inRange = at - starts[i];
            if (Long.compareUnsigned(inRange, present[i]) >= 0) {
                return counted;
            }
            long available = present[i] - inRange;
            if (Long.compareUnsigned(length - counted, available) <= 0) {
                return length;
            }
            counted += available;
            at += available;
        }
    }

    /**
     * True when every byte of {@code [address, address + length)} can be read; for {@code length} 0, when the byte
     * at {@code address} could (as {@link io.clrheap.memory.SegmentMemory} answers).
     */
    @Override
    public boolean contains(long address, long length) {
        if (length < 0) {
            return false;
        }
        return length == 0 ? presentPrefix(address, 1) == 1 : presentPrefix(address, length) == length;
    }

    @Override
    public List<MemoryRange> ranges() {
        return ranges;
    }

    @Override
    public String describe() {
        return name;
    }
}
