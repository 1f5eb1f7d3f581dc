package io.clrheap.walker.source.minidump;

import io.clrheap.walker.source.OsThread;
import io.clrheap.walker.source.ThreadSource;

import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.source.MappedDump;
import io.clrheap.walker.source.RangeMemory;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import io.clrheap.walker.source.CoreCache;
import io.clrheap.walker.source.elf.DecompressedCore;
import io.clrheap.walker.source.elf.XzCache;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;

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
public final class Minidump extends MappedDump implements ThreadSource, AutoCloseable {

    /** NT_TIB.StackBase: the TEB starts with an NT_TIB, whose second pointer is the stack's highest address (winnt.h). */
    private static final long NT_TIB_STACK_BASE = 8;

    private final Path path;
    private final String name;
    private final Arena arena;
    private final MemorySegment file;
    private final List<MinidumpModule> modules;
    private final List<MinidumpThread> threads;
    private final OptionalLong processId;
    private final Optional<Map<Long, String>> typeNames;
    /** The decompressed copy mapped, for an {@code .xz} file: a temporary one is deleted when this dump is closed. */
    private final Optional<DecompressedCore> copy;

    private Minidump(Path path, Arena arena, MemorySegment file, MinidumpParser.Parsed parsed, Optional<DecompressedCore> copy) {
        super(new RangeMemory(String.valueOf(path.getFileName()), file, parsed.runs().stream()
                .map(r -> new RangeMemory.Range(r.start(), r.end() - r.start(), r.end() - r.start(), r.fileOffset())).toList()));
        this.path = path;
        this.name = String.valueOf(path.getFileName());
        this.arena = arena;
        this.file = file;
        this.modules = parsed.modules();
        this.threads = parsed.threads();
        this.processId = parsed.processId();
        this.typeNames = parsed.typeNames();
        this.copy = copy;
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
        return open(file, limits, note -> { });
    }

    /**
     * As {@link #open(Path, MinidumpLimits)}; an xz-compressed minidump is decompressed into the cache folder this
     * process's environment names, never beside it, saying so to {@code notes}, and the copy is read.
     */
    public static Minidump open(Path file, MinidumpLimits limits, Consumer<String> notes) throws IOException {
        return open(file, limits, notes, CoreCache.fromEnvironment());
    }

    /** As {@link #open(Path, MinidumpLimits, Consumer)}, an xz-compressed minidump decompressed as {@code cache} says. */
    public static Minidump open(Path file, MinidumpLimits limits, Consumer<String> notes, CoreCache cache) throws IOException {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(cache, "cache");
        Optional<DecompressedCore> copy = XzCache.isXz(file) ? Optional.of(XzCache.decompressed(file, cache, notes)) : Optional.empty();
        Path mapped = copy.map(DecompressedCore::file).orElse(file);
        Arena arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(mapped, StandardOpenOption.READ)) {
            MemorySegment segment = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
            MinidumpParser.Parsed parsed = MinidumpParser.parse(new MinidumpBytes(segment, file), limits);
            return new Minidump(file, arena, segment, parsed, copy);
        } catch (IOException | RuntimeException | Error e) {
            arena.close();
            copy.ifPresent(DecompressedCore::discard);
            throw e;
        }
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

    /**
     * Each thread with a context, its stack's end from its TEB ({@code NT_TIB.StackBase} at TEB+8, winnt.h) when the
     * dump holds it, else the end of the stack memory the thread list gives.
     */
    @Override
    public List<OsThread> osThreads() {
        List<OsThread> found = new java.util.ArrayList<>();
        for (MinidumpThread t : threads) {
            if (t.registers().isEmpty()) {
                continue;
            }
            long base = t.stackStart() + t.stackSize();
            if (t.teb() != 0 && contains(t.teb() + NT_TIB_STACK_BASE, 8)) {
                long tib = readLong(t.teb() + NT_TIB_STACK_BASE);
                if (Long.compareUnsigned(tib, t.registers().get().rsp()) > 0) {
                    base = tib;
                }
            }
            found.add(new OsThread(t.threadId(), t.registers().get(), base));
        }
        return List.copyOf(found);
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
        copy.ifPresent(DecompressedCore::discard);
    }

    @Override
    public String describe() {
        return name;
    }

    @Override
    public String toString() {
        return "Minidump[" + path + ", " + ranges().size() + " memory ranges, " + modules.size() + " modules]";
    }
}
