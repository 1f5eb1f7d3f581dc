package io.clrheap.walker.source.elf;

import io.clrheap.walker.source.OsThread;
import io.clrheap.walker.source.ThreadSource;

import io.clrheap.walker.source.CoreCache;
import io.clrheap.walker.source.DumpFormatException;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.source.MappedDump;
import io.clrheap.walker.source.RangeMemory;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * An ELF core file ({@code ET_CORE}, {@code EM_X86_64}, {@code ELFCLASS64}, little endian) as a {@link Memory}.
 *
 * <p>The file is memory-mapped with {@code java.lang.foreign} (a {@link FileChannel#map} into a shared arena), so no
 * copy of it is made on the Java heap and files larger than 2 GiB work. An xz-compressed file (known by its first
 * bytes, not its name) is first decompressed into the cache folder, or a temporary file (see {@link #open(Path, Consumer, ElfCoreLimits, CoreCache)}).
 *
 * <p>Memory: each {@code PT_LOAD} covers {@code [p_vaddr, p_vaddr + p_memsz)}, but only its first {@code p_filesz}
 * bytes are in the file (trimmed dumps and the kernel set {@code p_filesz} below {@code p_memsz}, often 0, for
 * mappings they did not capture). A read of such bytes throws {@link MissingMemoryException} with
 * {@link MissingMemoryException.Reason#NOT_CAPTURED}; a read where no segment is throws it with
 * {@link MissingMemoryException.Reason#NOT_MAPPED}. A read may span segments that are adjacent in memory.
 *
 * <p>Reads are safe from several threads. After {@link #close()} every read throws {@link IllegalStateException}.
 */
public final class ElfCore extends MappedDump implements ThreadSource, AutoCloseable {

    private final Path path;
    private final String name;
    private final Arena arena;
    private final MemorySegment file;
    private final List<LoadSegment> loadSegments;
    private final CoreNotes notes;
    /** The decompressed copy mapped, for an {@code .xz} file: a temporary one is deleted when this core is closed. */
    private final Optional<DecompressedCore> copy;

    // The segments with p_memsz > 0, sorted by address, as parallel arrays: the lookup runs on every read.

    private ElfCore(Path path, String name, Arena arena, MemorySegment file, List<LoadSegment> loadSegments,
                    CoreNotes notes, Optional<DecompressedCore> copy) {
        super(new RangeMemory(name, file, loadSegments.stream().filter(s -> s.memsz() != 0)
                .map(s -> new RangeMemory.Range(s.vaddr(), s.end() - s.vaddr(), s.filesz(), s.fileOffset())).toList()));
        this.path = path;
        this.name = name;
        this.arena = arena;
        this.file = file;
        this.loadSegments = loadSegments;
        this.notes = notes;
        this.copy = copy;
    }

    /** Opens {@code file}; a note about decompressing an {@code .xz} file goes nowhere. */
    public static ElfCore open(Path file) throws DumpFormatException, IOException {
        return open(file, note -> { });
    }

    /**
     * Opens {@code file}. An xz-compressed file (by its first bytes) is decompressed (streaming, never whole in
     * memory; no further than its ELF headers declare; refused when that would not fit in the free space) into the cache
     * folder this process's environment names ({@link CoreCache#fromEnvironment()}), never beside it; a later open of the
     * same bytes reuses it. Decompressing sends one line, {@code decompressing X to Y (once)}, to {@code notes}.
     */
    public static ElfCore open(Path file, Consumer<String> notes) throws DumpFormatException, IOException {
        return open(file, notes, ElfCoreLimits.DEFAULT);
    }

    /** As {@link #open(Path, Consumer)}, with caps on what the file may declare. */
    public static ElfCore open(Path file, Consumer<String> notes, ElfCoreLimits limits)
            throws DumpFormatException, IOException {
        return open(file, notes, limits, CoreCache.fromEnvironment());
    }

    /** As {@link #open(Path, Consumer, ElfCoreLimits)}, an xz-compressed file decompressed as {@code cache} says. */
    public static ElfCore open(Path file, Consumer<String> notes, ElfCoreLimits limits, CoreCache cache)
            throws DumpFormatException, IOException {
        Objects.requireNonNull(notes, "notes");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(cache, "cache");
        if (!XzCache.isXz(file)) {
            return map(file, String.valueOf(file.getFileName()), limits, Optional.empty());
        }
        DecompressedCore copy = XzCache.decompressed(file, cache, notes);
        try {
            return map(copy.file(), String.valueOf(file.getFileName()), limits, Optional.of(copy));
        } catch (IOException | RuntimeException | Error e) {
            copy.discard();
            throw e;
        }
    }

    private static ElfCore map(Path path, String name, ElfCoreLimits limits, Optional<DecompressedCore> copy) throws IOException {
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
            return new ElfCore(path, name, arena, segment, List.copyOf(loads), notes, copy);
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

    /** Each {@code NT_PRSTATUS} thread with its registers; the core does not say where stacks end (stackBase 0). */
    @Override
    public List<OsThread> osThreads() {
        return notes.threads().stream().map(t -> new OsThread(Integer.toUnsignedLong(t.tid()), t.registers(), 0)).toList();
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
        copy.ifPresent(DecompressedCore::discard);
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
