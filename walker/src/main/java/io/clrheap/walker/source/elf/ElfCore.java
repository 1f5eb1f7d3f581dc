package io.clrheap.walker.source.elf;

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
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * An ELF core file ({@code ET_CORE}, {@code EM_X86_64}, {@code ELFCLASS64}, little endian) as a {@link Memory}.
 *
 * <p>The file is memory-mapped with {@code java.lang.foreign} (a {@link FileChannel#map} into a shared arena), so no
 * copy of it is made on the Java heap and files larger than 2 GiB work. A path ending in {@code .xz} is first
 * decompressed, once, to a cache file (see {@link #open(Path, Consumer)}).
 *
 * <p>Memory: each {@code PT_LOAD} covers {@code [p_vaddr, p_vaddr + p_memsz)}, but only its first {@code p_filesz}
 * bytes are in the file (trimmed dumps and the kernel set {@code p_filesz} below {@code p_memsz}, often 0, for
 * mappings they did not capture). A read of such bytes throws {@link MissingMemoryException} with
 * {@link MissingMemoryException.Reason#NOT_CAPTURED}; a read where no segment is throws it with
 * {@link MissingMemoryException.Reason#NOT_MAPPED}. A read may span segments that are adjacent in memory.
 *
 * <p>Reads are safe from several threads. After {@link #close()} every read throws {@link IllegalStateException}.
 */
public final class ElfCore implements Memory, AutoCloseable {

    private final Path path;
    private final String name;
    private final Arena arena;
    private final MemorySegment file;
    private final List<LoadSegment> loadSegments;
    private final CoreNotes notes;
    private final List<MemoryRange> ranges;

    // The segments with p_memsz > 0, sorted by address, as parallel arrays: the lookup runs on every read.
    private final long[] starts;
    private final long[] ends;
    private final long[] filesz;
    private final long[] fileOffsets;

    /**
     * The segment index of the last read. Most reads are sequential, so it usually hits. Threads may race on it
     * harmlessly: every use re-checks that the index covers the address.
     */
    private int lastHit;

    private ElfCore(Path path, String name, Arena arena, MemorySegment file, List<LoadSegment> loadSegments,
                    CoreNotes notes) {
        this.path = path;
        this.name = name;
        this.arena = arena;
        this.file = file;
        this.loadSegments = loadSegments;
        this.notes = notes;
        List<LoadSegment> mapped = loadSegments.stream().filter(s -> s.memsz() != 0).toList();
        int n = mapped.size();
        starts = new long[n];
        ends = new long[n];
        filesz = new long[n];
        fileOffsets = new long[n];
        for (int i = 0; i < n; i++) {
            LoadSegment segment = mapped.get(i);
            starts[i] = segment.vaddr();
            ends[i] = segment.end();
            filesz[i] = segment.filesz();
            fileOffsets[i] = segment.fileOffset();
        }
        ranges = coalescePresentRanges();
    }

    /** Opens {@code file}; a note about decompressing an {@code .xz} file goes nowhere. */
    public static ElfCore open(Path file) throws DumpFormatException, IOException {
        return open(file, note -> { });
    }

    /**
     * Opens {@code file}. A path ending in {@code .xz} is decompressed once (streaming, never whole in memory) to a
     * cache file: {@code <name without .xz>.decompressed} beside it when that directory is writable, else
     * {@code java.io.tmpdir/clrheap-cache/<sha-256 of the .xz path, size and mtime>.core}. A complete cache that is
     * not older than the {@code .xz} is reused. Decompressing sends one line, {@code decompressing X to Y (once)},
     * to {@code notes}.
     */
    public static ElfCore open(Path file, Consumer<String> notes) throws DumpFormatException, IOException {
        return open(file, notes, ElfCoreLimits.DEFAULT);
    }

    /** As {@link #open(Path, Consumer)}, with caps on what the file may declare. */
    public static ElfCore open(Path file, Consumer<String> notes, ElfCoreLimits limits)
            throws DumpFormatException, IOException {
        Objects.requireNonNull(notes, "notes");
        Objects.requireNonNull(limits, "limits");
        Path mapped = XzCache.isXz(file) ? XzCache.inTempDir().decompressed(file, notes) : file;
        return map(mapped, String.valueOf(file.getFileName()), limits);
    }

    private static ElfCore map(Path path, String name, ElfCoreLimits limits) throws IOException {
        Arena arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            MemorySegment segment = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
            CoreBytes bytes = new CoreBytes(segment, path);
            ElfCoreHeader header = ElfCoreHeader.read(bytes, limits);
            List<LoadSegment> loads = new ArrayList<>();
            List<ProgramHeader> noteSegments = new ArrayList<>();
            for (long i = 0; i < header.phnum(); i++) {
                ProgramHeader ph = ProgramHeader.read(bytes, header.phoff() + i * ElfCoreHeader.PHDR_SIZE);
                if (ph.type() == ProgramHeader.PT_LOAD) {
                    loads.add(ph.toLoadSegment(bytes));
                } else if (ph.type() == ProgramHeader.PT_NOTE) {
                    noteSegments.add(ph);
                }
            }
            loads.sort(Comparator.comparing(LoadSegment::vaddr, Long::compareUnsigned));
            requireNoOverlap(bytes, header, loads);
            CoreNotes notes = CoreNotes.parse(bytes, noteSegments, limits);
            return new ElfCore(path, name, arena, segment, List.copyOf(loads), notes);
        } catch (IOException | RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    /** Two PT_LOADs covering one address would make a read ambiguous; no core writer produces that. */
    private static void requireNoOverlap(CoreBytes file, ElfCoreHeader header, List<LoadSegment> sorted)
            throws DumpFormatException {
        LoadSegment previous = null;
        for (LoadSegment segment : sorted) {
            if (segment.memsz() == 0) {
                continue;
            }
            if (previous != null && Long.compareUnsigned(previous.end(), segment.vaddr()) > 0) {
                throw file.error(header.phoff(), String.format(
                        "PT_LOAD segments [0x%x, 0x%x) and [0x%x, 0x%x) overlap (in the program header table)",
                        previous.vaddr(), previous.end(), segment.vaddr(), segment.end()));
            }
            previous = segment;
        }
    }

    private List<MemoryRange> coalescePresentRanges() {
        List<MemoryRange> result = new ArrayList<>();
        long start = 0;
        long end = 0;
        boolean open = false;
        for (int i = 0; i < starts.length; i++) {
            if (filesz[i] == 0) {
                continue;
            }
            if (open && end == starts[i]) {
                end = starts[i] + filesz[i];
                continue;
            }
            if (open) {
                result.add(new MemoryRange(start, end - start));
            }
            start = starts[i];
            end = starts[i] + filesz[i];
            open = true;
        }
        if (open) {
            result.add(new MemoryRange(start, end - start));
        }
        return List.copyOf(result);
    }

    /** The file actually mapped (for an {@code .xz} file, its decompressed cache). */
    public Path path() {
        return path;
    }

    /** Every {@code PT_LOAD}, sorted by {@code vaddr}, including those with no bytes in the file. */
    public List<LoadSegment> loadSegments() {
        return loadSegments;
    }

    /** The {@code NT_FILE} entries, in note order (empty when the core has no such note). */
    public List<MappedFile> mappedFiles() {
        return notes.mappedFiles();
    }

    /** One thread per {@code NT_PRSTATUS} note, in note order. */
    public List<CoreThread> threads() {
        return notes.threads();
    }

    /** The auxiliary vector ({@code NT_AUXV}) up to {@code AT_NULL}, in note order: {@code a_type → a_val}. */
    /** The type names of a clrheap fixture core (its {@code clrheap} note), empty for real dumps. */
    public Map<Long, String> typeNames() {
        return notes.typeNames();
    }

    public Map<Long, Long> auxv() {
        return notes.auxv();
    }

    @Override
    public void close() {
        arena.close();
    }

    // ---- Memory ----

    /** The index of the segment whose {@code [vaddr, vaddr + memsz)} holds {@code address}, or -1. */
    private int indexOf(long address) {
        int hit = lastHit;
        if (hit < starts.length && Long.compareUnsigned(address - starts[hit], ends[hit] - starts[hit]) < 0) {
            return hit;
        }
        int low = 0;
        int high = starts.length - 1;
        int found = -1;
        while (low <= high) { // the last segment starting at or below the address
            int mid = (low + high) >>> 1;
            if (Long.compareUnsigned(starts[mid], address) <= 0) {
                found = mid;
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        if (found < 0 || Long.compareUnsigned(address, ends[found]) >= 0) {
            return -1;
        }
        lastHit = found;
        return found;
    }

    /** The file offset of {@code [address, address + length)} when one segment holds all of it in the file, else -1. */
    private long fileOffset(long address, int length) {
        int i = indexOf(address);
        if (i < 0) {
            return -1;
        }
        long inSegment = address - starts[i];
        if (Long.compareUnsigned(inSegment, filesz[i]) >= 0 || length > filesz[i] - inSegment) {
            return -1;
        }
        return fileOffsets[i] + inSegment;
    }

    private MissingMemoryException missing(long address, long length, long firstMissing) {
        MissingMemoryException.Reason reason = indexOf(firstMissing) >= 0
                ? MissingMemoryException.Reason.NOT_CAPTURED
                : MissingMemoryException.Reason.NOT_MAPPED;
        return new MissingMemoryException(address, length, name, reason);
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
        if (at >= 0) {
            return file.get(CoreBytes.U16, at);
        }
        return (short) readSpanning(address, 2);
    }

    @Override
    public int readInt(long address) {
        long at = fileOffset(address, 4);
        if (at >= 0) {
            return file.get(CoreBytes.U32, at);
        }
        return (int) readSpanning(address, 4);
    }

    @Override
    public long readLong(long address) {
        long at = fileOffset(address, 8);
        if (at >= 0) {
            return file.get(CoreBytes.U64, at);
        }
        return readSpanning(address, 8);
    }

    /** A little-endian value whose bytes span segments (or are missing: then this throws). */
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
        long present = presentPrefix(address, length);
        if (present < length) {
            throw missing(address, length, address + present);
        }
        long at = address;
        int done = 0;
        while (done < length) {
            int i = indexOf(at);
            long inSegment = at - starts[i];
            int chunk = (int) Math.min(length - done, filesz[i] - inSegment);
            MemorySegment.copy(file, ValueLayout.JAVA_BYTE, fileOffsets[i] + inSegment, destination, offset + done, chunk);
            done += chunk;
            at += chunk;
        }
    }

    /**
     * How many bytes from {@code address} on, up to {@code length}, are in the file: segments continue a run only
     * when one starts exactly where the previous one's file bytes end. A range that wraps past the top of the
     * address space has none.
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
            long inSegment = at - starts[i];
            if (Long.compareUnsigned(inSegment, filesz[i]) >= 0) {
                return counted;
            }
            long available = filesz[i] - inSegment;
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

    @Override
    public String toString() {
        return "ElfCore[" + path + ", " + loadSegments.size() + " PT_LOAD]";
    }
}
