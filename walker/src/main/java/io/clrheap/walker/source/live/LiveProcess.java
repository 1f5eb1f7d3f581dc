package io.clrheap.walker.source.live;

import com.sun.jna.LastErrorException;
import com.sun.jna.Pointer;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MemoryRange;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.source.elf.MappedFile;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The memory of another running Linux process, read with {@code process_vm_readv} (through JNA): what a live walk
 * reads instead of a dump. {@code /proc/PID/maps} gives the ranges and the mapped files (the modules, as an ELF
 * core's NT_FILE note gives them, so that {@link io.clrheap.walker.runtime.TargetOpener} finds the runtime module
 * the same way), {@code /proc/PID/task} the threads.
 *
 * <p>Reads: a read of bytes the process does not have readable (unmapped, or a {@code PROT_NONE} reservation)
 * throws {@link MissingMemoryException} with the address, as every source does; a read after the process exited
 * throws {@link LiveProcessException} of kind {@link LiveProcessException.Kind#EXITED}; one the kernel refuses, kind
 * {@link LiveProcessException.Kind#PERMISSION_DENIED}. Small reads go through a per-thread cache of 4 KiB pages
 * ({@value #CACHED_PAGES} of them); {@link #contiguous} hands out a fresh copy of up to {@value #CHUNK} bytes, which
 * is what the object walk reads objects from, so a region costs one system call per 256 KiB.
 *
 * <p>The process is not stopped (see {@link ProcessSuspension}): what a read returns is the memory at that moment,
 * and the cache keeps the first answer for a page until {@link #refresh()}. Safe to use from several threads.
 */
public final class LiveProcess implements Memory, AutoCloseable {

    static final int PAGE = 4096;
    static final int CHUNK = 256 << 10;
    static final int CACHED_PAGES = 64;
    private static final VarHandle I16 = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final int pid;
    private final String command;
    private final String name;
    private volatile Snapshot snapshot;
    /** Bumped by {@link #refresh()}: a thread's cached pages of an older generation are dropped. */
    private volatile int generation;
    private volatile boolean closed;
    private final ThreadLocal<Reader> readers = ThreadLocal.withInitial(Reader::new);

    /** The maps at one moment: every mapping, and the readable ranges (neighbours joined). */
    private record Snapshot(List<Mapping> mappings, List<MemoryRange> ranges, long[] starts, long[] ends) {
        static Snapshot of(List<Mapping> mappings) {
            List<MemoryRange> ranges = new ArrayList<>();
            long start = 0;
            long end = 0;
            boolean open = false;
            for (Mapping m : mappings) {
                if (!m.readable() || m.kernelSpecial() || m.end() == m.start()) {
                    continue;
                }
                if (open && m.start() == end) {
                    end = m.end();
                    continue;
                }
                if (open) {
                    ranges.add(new MemoryRange(start, end - start));
                }
                start = m.start();
                end = m.end();
                open = true;
            }
            if (open) {
                ranges.add(new MemoryRange(start, end - start));
            }
            long[] starts = new long[ranges.size()];
            long[] ends = new long[ranges.size()];
            for (int i = 0; i < ranges.size(); i++) {
                starts[i] = ranges.get(i).start();
                ends[i] = ranges.get(i).end();
            }
            return new Snapshot(List.copyOf(mappings), List.copyOf(ranges), starts, ends);
        }

        boolean covers(long address, long length) {
            int lo = 0;
            int hi = starts.length - 1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                if (Long.compareUnsigned(ends[mid], address) <= 0) {
                    lo = mid + 1;
                } else if (Long.compareUnsigned(starts[mid], address) > 0) {
                    hi = mid - 1;
                } else {
                    return Long.compareUnsigned(length, ends[mid] - address) <= 0;
                }
            }
            return false;
        }
    }

    private LiveProcess(int pid, String command, List<Mapping> mappings) {
        this.pid = pid;
        this.command = command;
        this.name = "process " + pid + " (" + command + ")";
        this.snapshot = Snapshot.of(mappings);
    }

    /**
     * Opens process {@code pid}: reads its maps and checks that its memory can be read (one read of its first readable
     * page), so that a missing permission shows here, not in the middle of a walk.
     *
     * @throws LiveProcessException NO_SUCH_PROCESS, PERMISSION_DENIED (with what to change), EXITED
     */
    public static LiveProcess open(int pid) {
        if (!ProcFiles.exists(pid)) {
            throw new LiveProcessException(LiveProcessException.Kind.NO_SUCH_PROCESS, pid, "no such process: " + pid);
        }
        String command = ProcFiles.command(pid);
        List<Mapping> mappings = ProcFiles.maps(pid);
        LiveProcess process = new LiveProcess(pid, command, mappings);
        List<MemoryRange> ranges = process.ranges();
        if (ranges.isEmpty()) {
            // a zombie (or a kernel thread) has no memory at all
            throw LiveProcessException.exited(pid, "(it has no memory: a zombie or a kernel thread)");
        }
        process.readers.get().transfer(ranges.get(0).start(), 8); // EPERM / ESRCH surface here
        return process;
    }

    public int pid() {
        return pid;
    }

    /** The process's name, from /proc/PID/comm. */
    public String command() {
        return command;
    }

    /** The mappings as /proc/PID/maps listed them when opened (or last refreshed). */
    public List<Mapping> mappings() {
        return snapshot.mappings();
    }

    /** The file mappings, in the shape of an ELF core's NT_FILE entries: what TargetOpener finds the runtime module in. */
    public List<MappedFile> mappedFiles() {
        List<MappedFile> files = new ArrayList<>();
        for (Mapping m : snapshot.mappings()) {
            if (m.fileBacked()) {
                files.add(new MappedFile(m.start(), m.end(), m.offset(), m.path()));
            }
        }
        return files;
    }

    /** The thread ids, from /proc/PID/task now. */
    public List<Integer> threads() {
        return ProcFiles.threads(pid);
    }

    /** Reads the maps again and forgets every cached page (of every thread): later reads see the process as it is now. */
    public void refresh() {
        snapshot = Snapshot.of(ProcFiles.maps(pid));
        generation++;
    }

    @Override
    public byte readByte(long address) {
        Reader r = readers.get();
        byte[] page = r.page(address, 1);
        return page == null ? r.scratch(address, 1)[0] : page[(int) (address & (PAGE - 1))];
    }

    @Override
    public short readShort(long address) {
        Reader r = readers.get();
        byte[] page = r.page(address, 2);
        return page == null ? (short) I16.get(r.scratch(address, 2), 0) : (short) I16.get(page, (int) (address & (PAGE - 1)));
    }

    @Override
    public int readInt(long address) {
        Reader r = readers.get();
        byte[] page = r.page(address, 4);
        return page == null ? (int) I32.get(r.scratch(address, 4), 0) : (int) I32.get(page, (int) (address & (PAGE - 1)));
    }

    @Override
    public long readLong(long address) {
        Reader r = readers.get();
        byte[] page = r.page(address, 8);
        return page == null ? (long) I64.get(r.scratch(address, 8), 0) : (long) I64.get(page, (int) (address & (PAGE - 1)));
    }

    @Override
    public void read(long address, byte[] destination, int offset, int length) {
        java.util.Objects.checkFromIndexSize(offset, length, destination.length);
        if (length == 0) {
            return;
        }
        Reader r = readers.get();
        byte[] page = r.page(address, length);
        if (page != null) {
            System.arraycopy(page, (int) (address & (PAGE - 1)), destination, offset, length);
            return;
        }
        int done = 0;
        while (done < length) {
            int want = Math.min(CHUNK, length - done);
            int got = r.transfer(address + done, want);
            r.buffer.read(0, destination, offset + done, got);
            done += got;
            if (got < want) {
                throw missing(address + done, length - done);
            }
        }
    }

    /**
     * A copy of the bytes from {@code address} on, up to {@value #CHUNK} of them and as far as they are readable, or
     * null when the byte at {@code address} is not. Each call reads the process anew and returns a new segment, so a
     * view stays valid (and unchanged) however long its caller keeps it.
     */
    @Override
    public MemorySegment contiguous(long address) {
        Reader r = readers.get();
        int got = r.transfer(address, CHUNK - (int) (address & (PAGE - 1)));
        if (got == 0) {
            return null;
        }
        byte[] copy = new byte[got];
        r.buffer.read(0, copy, 0, got);
        return MemorySegment.ofArray(copy).asReadOnly();
    }

    /**
     * True when the maps show {@code [address, address + length)} readable; when they did not at the last look, they
     * are read again once (the runtime commits memory as it runs) before answering false.
     */
    @Override
    public boolean contains(long address, long length) {
        if (length < 0 || Long.compareUnsigned(address + length, address) < 0 && address + length != 0) {
            return false;
        }
        if (length == 0 || snapshot.covers(address, length)) {
            return true;
        }
        snapshot = Snapshot.of(ProcFiles.maps(pid));
        return snapshot.covers(address, length);
    }

    @Override
    public List<MemoryRange> ranges() {
        return snapshot.ranges();
    }

    @Override
    public String describe() {
        return name;
    }

    /** Nothing to release but the per-thread buffers, which go with their threads; reads after this throw. */
    @Override
    public void close() {
        closed = true;
    }

    @Override
    public String toString() {
        return "LiveProcess[" + name + ", " + snapshot.mappings().size() + " mappings]";
    }

    private MissingMemoryException missing(long address, long length) {
        return new MissingMemoryException(address, length, name, MissingMemoryException.Reason.NOT_MAPPED);
    }

    /** One thread's native buffers (the two iovecs and a chunk) and cached pages. */
    private final class Reader {
        private final com.sun.jna.Memory iovecs = new com.sun.jna.Memory(32);
        private final Pointer remote = iovecs.share(16);
        final com.sun.jna.Memory buffer = new com.sun.jna.Memory(CHUNK);
        private final long[] tags = new long[CACHED_PAGES];
        private final byte[][] pages = new byte[CACHED_PAGES][];
        private final byte[] scratch = new byte[8];
        private int generationSeen = generation;

        Reader() {
            java.util.Arrays.fill(tags, -1);
            for (int i = 0; i < CACHED_PAGES; i++) {
                pages[i] = new byte[PAGE];
            }
        }

        /**
         * The cached page holding {@code [address, address + length)}, read on a miss; null when the bytes cross into
         * the next page (then {@link #scratch} reads them).
         *
         * @throws MissingMemoryException when the page is not readable
         */
        byte[] page(long address, int length) {
            int inPage = (int) (address & (PAGE - 1));
            if (inPage + length > PAGE) {
                return null;
            }
            if (generationSeen != generation) {
                java.util.Arrays.fill(tags, -1);
                generationSeen = generation;
            }
            long number = address >>> 12;
            int slot = (int) (number & (CACHED_PAGES - 1));
            if (tags[slot] == number) {
                return pages[slot];
            }
            int got = transfer(address - inPage, PAGE);
            if (got < PAGE) {
                // the page went away between two reads of the kernel, or was never there
                throw missing(address, length);
            }
            buffer.read(0, pages[slot], 0, PAGE);
            tags[slot] = number;
            return pages[slot];
        }

        /** The {@code length} (at most 8) bytes at {@code address}, read past the cache (they cross a page boundary). */
        byte[] scratch(long address, int length) {
            int got = transfer(address, length);
            if (got < length) {
                throw missing(address, length);
            }
            buffer.read(0, scratch, 0, length);
            return scratch;
        }

        /**
         * Copies up to {@code length} bytes from {@code address} into {@link #buffer}; returns how many were readable
         * (the kernel stops at the first page it cannot read; a short copy is continued until it stops making progress).
         */
        int transfer(long address, int length) {
            if (closed) {
                throw new IllegalStateException(name + " is closed");
            }
            long base = Pointer.nativeValue(buffer);
            int done = 0;
            while (done < length) {
                long n;
                iovecs.setLong(0, base + done);
                iovecs.setLong(8, length - done);
                iovecs.setLong(16, address + done);
                iovecs.setLong(24, length - done);
                try {
                    n = LibC.process_vm_readv(pid, iovecs, 1, remote, 1, 0);
                } catch (LastErrorException e) {
                    switch (e.getErrorCode()) {
                        case LibC.EFAULT, LibC.ENOMEM -> {
                            return done; // not readable there (ENOMEM: a remote range the kernel cannot pin)
                        }
                        case LibC.ESRCH -> throw LiveProcessException.exited(pid, String.format(
                                "while it was being read (reading 0x%x)", address + done));
                        case LibC.EPERM -> throw new LiveProcessException(LiveProcessException.Kind.PERMISSION_DENIED, pid,
                                "permission denied reading the memory of " + name + ": " + LiveProcessException.permissionHint(), e);
                        case LibC.EINTR -> {
                            continue;
                        }
                        default -> throw new LiveProcessException(LiveProcessException.Kind.FAILED, pid, String.format(
                                "process_vm_readv of %d bytes at 0x%x in %s failed: errno %d", length - done, address + done, name,
                                e.getErrorCode()), e);
                    }
                }
                if (n <= 0) {
                    return done;
                }
                done += (int) n;
            }
            return done;
        }
    }
}
