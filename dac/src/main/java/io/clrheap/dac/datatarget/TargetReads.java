package io.clrheap.dac.datatarget;

import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * The reads the DAC asks of target memory, answered from a {@link Memory}: the bytes present from the start of the
 * range (a range that starts in missing memory reads nothing), and a record of the reads that failed, so a report can
 * say what the DAC looked for and did not find.
 */
public final class TargetReads {

    /** How many failed reads are kept with their address; the rest are only counted. */
    public static final int KEPT_FAILURES = 64;
    private static final int PAGE = 4096;

    /** A read the dump could not answer in full. */
    public record FailedRead(long address, int requested, int present) {
        @Override
        public String toString() {
            return String.format("%d bytes at 0x%x (%d present)", requested, address, present);
        }
    }

    private final Memory memory;
    private final List<FailedRead> failures = new ArrayList<>();
    private long failureCount;
    private long readCount;
    private long bytesRead;

    public TargetReads(Memory memory) {
        this.memory = memory;
    }

    public Memory memory() {
        return memory;
    }

    /**
     * Copies up to {@code length} bytes at {@code address} into {@code buffer}; returns how many were present from
     * the start (so 0 when the first byte is missing).
     */
    public int read(long address, MemorySegment buffer, int length) {
        readCount++;
        if (length <= 0) {
            return 0;
        }
        int present = presentPrefix(address, length);
        if (present > 0) {
            copy(address, buffer, present);
        }
        if (present < length) {
            failureCount++;
            if (failures.size() < KEPT_FAILURES) {
                failures.add(new FailedRead(address, length, present));
            }
        }
        bytesRead += present;
        return present;
    }

    private int presentPrefix(long address, int length) {
        if (memory.contains(address, length)) {
            return length;
        }
        // page by page: the first page boundary that is not present ends the prefix
        long end = address + Integer.toUnsignedLong(length);
        long at = address;
        while (Long.compareUnsigned(at, end) < 0) {
            long next = Math.min((at & -PAGE) + PAGE, end);
            if (!memory.contains(at, next - at)) {
                // the page holds some bytes, perhaps: find them one by one (at most a page)
                while (at < next && memory.contains(at, 1)) {
                    at++;
                }
                break;
            }
            at = next;
        }
        return (int) (at - address);
    }

    private void copy(long address, MemorySegment buffer, int length) {
        MemorySegment view = memory.contiguous(address);
        if (view != null && view.byteSize() >= length) {
            MemorySegment.copy(view, 0, buffer, 0, length);
            return;
        }
        byte[] bytes = new byte[Math.min(length, 1 << 20)];
        int done = 0;
        while (done < length) {
            int n = Math.min(bytes.length, length - done);
            try {
                memory.read(address + done, bytes, 0, n);
            } catch (MissingMemoryException e) {
                throw new IllegalStateException("memory said present and then missing at 0x" + Long.toHexString(address + done), e);
            }
            MemorySegment.copy(bytes, 0, buffer, ValueLayout.JAVA_BYTE, done, n);
            done += n;
        }
    }

    /**
     * A data target's {@code ReadVirtual(address, buffer, requested, &done)}: the bytes present, {@code *done} set when
     * the pointer is not NULL; S_OK, or E_FAIL when not one byte is present. Never throws (it runs in an upcall).
     */
    public int readVirtual(long address, MemorySegment buffer, int requested, MemorySegment done) {
        try {
            int n = read(address, buffer.reinterpret(Integer.toUnsignedLong(requested)), requested);
            if (done.address() != 0) {
                done.reinterpret(4).set(ValueLayout.JAVA_INT, 0, n);
            }
            return n == 0 && requested != 0 ? io.clrheap.dac.com.Hresult.E_FAIL : io.clrheap.dac.com.Hresult.S_OK;
        } catch (RuntimeException | Error e) {
            return io.clrheap.dac.com.Hresult.E_FAIL;
        }
    }

    /** The failed reads kept (at most {@link #KEPT_FAILURES}). */
    public List<FailedRead> failures() {
        return List.copyOf(failures);
    }

    public long failureCount() {
        return failureCount;
    }

    public long readCount() {
        return readCount;
    }

    public long bytesRead() {
        return bytesRead;
    }
}
