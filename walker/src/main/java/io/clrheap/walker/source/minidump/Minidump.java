package io.clrheap.walker.source.minidump;

import io.clrheap.memory.Memory;
import io.clrheap.memory.MemoryRange;
import io.clrheap.memory.MissingMemoryException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A Windows minidump of an x64 process ({@code MDMP}, version 0xA793, a SystemInfoStream saying AMD64) as a
 * {@link Memory}, with its module list, thread list, process id and clrheap's type-name stream.
 *
 * <p>The file is memory-mapped with {@code java.lang.foreign} (a {@link FileChannel#map} into a shared arena), so no
 * copy of it is made on the Java heap and files larger than 4 GiB work. Memory is what the Memory64ListStream and
 * the MemoryListStream describe: each range's bytes are in the file. A read outside every range throws
 * {@link MissingMemoryException} ({@link MissingMemoryException.Reason#NOT_MAPPED}) with the address; a read may
 * span ranges that are adjacent in memory.
 *
 * <p>A file that is truncated, corrupt or not a minidump is refused when it is opened, with a
 * {@link MinidumpFormatException} naming the file offset (see {@link MinidumpParser}). Reads are safe from several
 * threads. After {@link #close()} every read throws {@link IllegalStateException}.
 */
public final class Minidump implements Memory, AutoCloseable {

    private final Path path;
    private final String name;
    private final Arena arena;
    private final MemorySegment file;
    private final List<MinidumpModule> modules;
    private final List<MinidumpThread> threads;
    private final OptionalLong processId;
    private final Optional<Map<Long, String>> typeNames;
    private final List<MemoryRange> ranges;

    // the memory ranges, sorted by address, as parallel arrays: the lookup runs on every read
    private final long[] starts;
    private final long[] ends;
    private final long[] fileOffsets;

    /** The range index of the last read; threads may race on it harmlessly: every use re-checks it covers the address. */
    private int lastHit;

    private Minidump(Path path, Arena arena, MemorySegment file, MinidumpParser.Parsed parsed) {
        this.path = path;
        this.name = String.valueOf(path.getFileName());
        this.arena = arena;
        this.file = file;
        this.modules = parsed.modules();
        this.threads = parsed.threads();
        this.processId = parsed.processId();
        this.typeNames = parsed.typeNames();
        List<MinidumpParser.Run> runs = parsed.runs();
        int n = runs.size();
        starts = new long[n];
        ends = new long[n];
        fileOffsets = new long[n];
        for (int i = 0; i < n; i++) {
            starts[i] = runs.get(i).start();
            ends[i] = runs.get(i).end();
            fileOffsets[i] = runs.get(i).fileOffset();
        }
        ranges = coalesce();
    }

    /**
     * True when {@code file} starts with the minidump signature {@code MDMP}: a cheap test to choose a reader by
     * (an ELF core starts with {@code \x7fELF}). Says nothing of whether the rest is sound; {@link #open} does.
     */
    public static boolean isMinidump(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            java.nio.ByteBuffer magic = java.nio.ByteBuffer.allocate(4).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            while (magic.hasRemaining()) {
                if (channel.read(magic) < 0) {
                    return false; // shorter than the signature
                }
            }
            return Integer.toUnsignedLong(magic.getInt(0)) == MinidumpParser.SIGNATURE;
        }
    }

    /** Opens and checks {@code file} with the default limits. */
    public static Minidump open(Path file) throws IOException {
        return open(file, MinidumpLimits.DEFAULT);
    }

    /**
     * Opens and checks {@code file}.
     *
     * @throws MinidumpFormatException when it is not an x64 minidump, or is truncated or corrupt (the message and
     *                                 {@link MinidumpFormatException#fileOffset()} say where)
     * @throws IOException             when it cannot be read
     */
    public static Minidump open(Path file, MinidumpLimits limits) throws IOException {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(limits, "limits");
        Arena arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            MemorySegment segment = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
            MinidumpParser.Parsed parsed = MinidumpParser.parse(new MinidumpBytes(segment, file), limits);
            return new Minidump(file, arena, segment, parsed);
        } catch (IOException | RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    private List<MemoryRange> coalesce() {
        List<MemoryRange> result = new ArrayList<>();
        int i = 0;
        while (i < starts.length) {
            long start = starts[i];
            long end = ends[i];
            while (i + 1 < starts.length && starts[i + 1] == end) {
                end = ends[++i];
            }
            result.add(new MemoryRange(start, end - start));
            i++;
        }
        return List.copyOf(result);
    }

    /** The file. */
    public Path path() {
        return path;
    }

    /** The module list, in file order (empty when the dump has no ModuleListStream). */
    public List<MinidumpModule> modules() {
        return modules;
    }

    /** The thread list, in file order (empty when the dump has no ThreadListStream). */
    public List<MinidumpThread> threads() {
        return threads;
    }

    /** The process id from the MiscInfoStream, when it gives one. */
    public OptionalLong processId() {
        return processId;
    }

    /**
     * MethodTable → type name from clrheap's type-name stream (type 0x636C7268, 'clrh': UTF-8 lines
     * {@code 0x<mt> <name>}), which the minidumps clrheap writes carry; empty for other dumps.
     */
    public Optional<Map<Long, String>> typeNames() {
        return typeNames;
    }

    @Override
    public void close() {
        arena.close();
    }

    // ---- Memory ----

    /** The index of the range holding {@code address}, or -1. */
    private int indexOf(long address) {
        int hit = lastHit;
        if (hit < starts.length && Long.compareUnsigned(address - starts[hit], ends[hit] - starts[hit]) < 0) {
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
        if (found < 0 || Long.compareUnsigned(address - starts[found], ends[found] - starts[found]) >= 0) {
            return -1;
        }
        lastHit = found;
        return found;
    }

    /** The file offset of {@code [address, address + length)} when one range holds all of it, else -1. */
    private long fileOffset(long address, int length) {
        int i = indexOf(address);
        if (i < 0) {
            return -1;
        }
        long inRange = address - starts[i];
        if (length > ends[i] - starts[i] - inRange) {
            return -1;
        }
        return fileOffsets[i] + inRange;
    }

    private MissingMemoryException missing(long address, long length) {
        return new MissingMemoryException(address, length, name, MissingMemoryException.Reason.NOT_MAPPED);
    }

    @Override
    public byte readByte(long address) {
        long at = fileOffset(address, 1);
        if (at < 0) {
            throw missing(address, 1);
        }
        return file.get(ValueLayout.JAVA_BYTE, at);
    }

    @Override
    public short readShort(long address) {
        long at = fileOffset(address, 2);
        return at >= 0 ? file.get(MinidumpBytes.U16, at) : (short) readSpanning(address, 2);
    }

    @Override
    public int readInt(long address) {
        long at = fileOffset(address, 4);
        return at >= 0 ? file.get(MinidumpBytes.U32, at) : (int) readSpanning(address, 4);
    }

    @Override
    public long readLong(long address) {
        long at = fileOffset(address, 8);
        return at >= 0 ? file.get(MinidumpBytes.U64, at) : readSpanning(address, 8);
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
        if (presentPrefix(address, length) < length) {
            throw missing(address, length);
        }
        long at = address;
        int done = 0;
        while (done < length) {
            int i = indexOf(at);
            long inRange = at - starts[i];
            int chunk = (int) Math.min(length - done, ends[i] - starts[i] - inRange);
            MemorySegment.copy(file, ValueLayout.JAVA_BYTE, fileOffsets[i] + inRange, destination, offset + done, chunk);
            done += chunk;
            at += chunk;
        }
    }

    /**
     * How many bytes from {@code address} on, up to {@code length}, are in the dump: ranges continue a run only when
     * one starts exactly where the previous one ends. A range that wraps past the top of the address space has none.
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
            long available = ends[i] - at;
            if (Long.compareUnsigned(length - counted, available) <= 0) {
                return length;
            }
            counted += available;
            at += available;
        }
    }

    /** True when every byte of {@code [address, address + length)} can be read; for {@code length} 0, the byte at {@code address}. */
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

    @Override
    public String toString() {
        return "Minidump[" + path + ", " + starts.length + " memory ranges, " + modules.size() + " modules]";
    }
}
