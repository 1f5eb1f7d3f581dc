package io.clrheap.walker.source.minidump;

import io.clrheap.walker.source.Register;
import io.clrheap.walker.source.RegisterSet;
import java.util.Optional;

import io.clrheap.walker.source.TypeNameTable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads a minidump's header, stream directory and the streams clrheap uses. Facts (sizes and offsets of
 * MINIDUMP_HEADER, MINIDUMP_DIRECTORY, MINIDUMP_MEMORY_DESCRIPTOR(64), MINIDUMP_MODULE, MINIDUMP_THREAD,
 * MINIDUMP_SYSTEM_INFO, MINIDUMP_MISC_INFO, MINIDUMP_STRING and the AMD64 CONTEXT): docs/reference/dump-formats.md section 3,
 * read from mingw-w64's dbghelp.h and LLVM's Minidump.h.
 *
 * <p>Every structure is checked to lie in the file before it is read, every count is checked against the stream
 * that holds it and against {@link MinidumpLimits} before anything is allocated, and every memory range must have
 * its bytes in the file and overlap no other; a fault is a {@link MinidumpFormatException} naming the offset.
 */
final class MinidumpParser {

    static final long SIGNATURE = 0x504d444dL; // "MDMP"
    static final int VERSION = 0xa793;
    static final int HEADER_SIZE = 32;
    static final int DIRECTORY_ENTRY_SIZE = 12;
    static final int MODULE_SIZE = 108;
    static final int THREAD_SIZE = 48;
    static final int MEMORY_DESCRIPTOR_SIZE = 16;
    static final int SYSTEM_INFO_SIZE = 56;
    /** PROCESSOR_ARCHITECTURE_AMD64. */
    static final int AMD64 = 9;
    /** MINIDUMP_MISC_INFO.Flags1: ProcessId is valid. */
    static final long MISC1_PROCESS_ID = 1;
    /** CONTEXT (AMD64, winnt.h): Rsp, Rip; Rip is its last integer or control register. */
    static final int CONTEXT_RSP = 0x98;
    static final int CONTEXT_RIP = 0xf8;
    /** CONTEXT (AMD64, winnt.h): Rax at 0x78, then Rcx Rdx Rbx Rsp Rbp Rsi Rdi R8..R15 Rip, 8 bytes each. */
    private static final Register[] CONTEXT_INTEGER_ORDER = {Register.RAX, Register.RCX, Register.RDX, Register.RBX, Register.RSP,
        Register.RBP, Register.RSI, Register.RDI, Register.R8, Register.R9, Register.R10, Register.R11, Register.R12, Register.R13,
        Register.R14, Register.R15, Register.RIP};
    private static final int CONTEXT_RAX = 0x78;

    /** A stream directory entry: where it is in the directory, and the stream's type, size and RVA. */
    record Stream(long type, long size, long rva, long entryOffset) {
    }

    /** A memory range and where its bytes are; {@code descriptorOffset} is where the file describes it. */
    record Run(long start, long size, long fileOffset, long descriptorOffset) {
        long end() {
            return start + size;
        }
    }

    /** What was read. */
    record Parsed(List<Run> runs, List<MinidumpModule> modules, List<MinidumpThread> threads, OptionalLong processId,
                  Optional<Map<Long, String>> typeNames) {
    }

    private final MinidumpBytes file;
    private final MinidumpLimits limits;

    private MinidumpParser(MinidumpBytes file, MinidumpLimits limits) {
        this.file = file;
        this.limits = limits;
    }

    static Parsed parse(MinidumpBytes file, MinidumpLimits limits) throws MinidumpFormatException {
        return new MinidumpParser(file, limits).parse();
    }

    private Parsed parse() throws MinidumpFormatException {
        file.require(0, HEADER_SIZE, "MINIDUMP_HEADER");
        long signature = file.u32(0);
        if (signature != SIGNATURE) {
            throw file.error(0, String.format("not a minidump: signature 0x%08x (expected 0x%08x, \"MDMP\")", signature, SIGNATURE));
        }
        int version = file.u16(4);
        if (version != VERSION) {
            throw file.error(4, String.format("minidump version 0x%04x (expected 0x%04x)", version, VERSION));
        }
        Map<Long, Stream> streams = directory();
        Stream systemInfo = streams.get(StreamType.SYSTEM_INFO);
        if (systemInfo == null) {
            throw file.error(12, "no SystemInfoStream in the stream directory: the processor architecture is unknown");
        }
        systemInfo(systemInfo);
        List<Run> runs = new ArrayList<>();
        long[] budget = {limits.maxMemoryRanges()};
        if (streams.containsKey(StreamType.MEMORY64_LIST)) {
            memory64(streams.get(StreamType.MEMORY64_LIST), runs, budget);
        }
        if (streams.containsKey(StreamType.MEMORY_LIST)) {
            memory32(streams.get(StreamType.MEMORY_LIST), runs, budget);
        }
        runs.sort(Comparator.comparing(Run::start, Long::compareUnsigned));
        for (int i = 1; i < runs.size(); i++) {
            Run a = runs.get(i - 1);
            Run b = runs.get(i);
            if (Long.compareUnsigned(a.end(), b.start()) > 0) {
                throw file.error(b.descriptorOffset(), String.format(
                        "memory ranges [0x%x, 0x%x) and [0x%x, 0x%x) overlap (the first described at file offset 0x%x)",
                        a.start(), a.end(), b.start(), b.end(), a.descriptorOffset()));
            }
        }
        List<MinidumpModule> modules = streams.containsKey(StreamType.MODULE_LIST) ? modules(streams.get(StreamType.MODULE_LIST)) : List.of();
        List<MinidumpThread> threads = streams.containsKey(StreamType.THREAD_LIST) ? threads(streams.get(StreamType.THREAD_LIST)) : List.of();
        OptionalLong pid = streams.containsKey(StreamType.MISC_INFO) ? processId(streams.get(StreamType.MISC_INFO)) : OptionalLong.empty();
        Optional<Map<Long, String>> names = streams.containsKey(StreamType.TYPE_NAMES)
                ? Optional.of(typeNames(streams.get(StreamType.TYPE_NAMES))) : Optional.empty();
        return new Parsed(List.copyOf(runs), modules, threads, pid, names);
    }

    /** The stream directory: each stream in the file, no type twice (LLVM refuses duplicates too), unused entries skipped. */
    private Map<Long, Stream> directory() throws MinidumpFormatException {
        long count = file.u32(8);
        long rva = file.u32(12);
        if (count > limits.maxStreams()) {
            throw file.error(8, String.format("NumberOfStreams %d is above the limit of %d", count, limits.maxStreams()));
        }
        file.require(rva, count * DIRECTORY_ENTRY_SIZE, "the stream directory (" + count + " entries)");
        Map<Long, Stream> streams = new HashMap<>();
        for (long i = 0; i < count; i++) {
            long at = rva + i * DIRECTORY_ENTRY_SIZE;
            long type = file.u32(at);
            long size = file.u32(at + 4);
            long data = file.u32(at + 8);
            if (type == StreamType.UNUSED) {
                continue;
            }
            if (!file.inside(data, size)) {
                throw file.error(at, String.format("%s of 0x%x bytes at RVA 0x%x runs past the end of the file (0x%x bytes)",
                        StreamType.name(type), size, data, file.size()));
            }
            Stream previous = streams.putIfAbsent(type, new Stream(type, size, data, at));
            if (previous != null) {
                throw file.error(at, String.format("a second %s (the first is listed at file offset 0x%x)", StreamType.name(type), previous.entryOffset()));
            }
        }
        return streams;
    }

    private void systemInfo(Stream s) throws MinidumpFormatException {
        if (s.size() < SYSTEM_INFO_SIZE) {
            throw file.error(s.entryOffset(), String.format("SystemInfoStream of %d bytes (MINIDUMP_SYSTEM_INFO has %d)", s.size(), SYSTEM_INFO_SIZE));
        }
        int architecture = file.u16(s.rva());
        if (architecture != AMD64) {
            throw file.error(s.rva(), String.format("processor architecture %d is not AMD64 (%d): clrheap reads x64 processes", architecture, AMD64));
        }
    }

    /** MINIDUMP_MEMORY64_LIST: count, BaseRva, descriptors; the bytes of range i follow those of range i - 1 from BaseRva. */
    private void memory64(Stream s, List<Run> runs, long[] budget) throws MinidumpFormatException {
        if (s.size() < 16) {
            throw file.error(s.entryOffset(), String.format("Memory64ListStream of %d bytes (its header has 16)", s.size()));
        }
        long count = file.u64(s.rva());
        long dataOffset = file.u64(s.rva() + 8);
        long room = (s.size() - 16) / MEMORY_DESCRIPTOR_SIZE;
        if (Long.compareUnsigned(count, room) > 0) {
            throw file.error(s.rva(), String.format("Memory64ListStream counts %s ranges, but its %d bytes hold %d descriptors",
                    Long.toUnsignedString(count), s.size(), room));
        }
        takeFromBudget(budget, count, s.rva());
        for (long i = 0; i < count; i++) {
            long at = s.rva() + 16 + i * MEMORY_DESCRIPTOR_SIZE;
            long start = file.u64(at);
            long size = file.u64(at + 8);
            checkRange(i, start, size, at);
            if (!file.inside(dataOffset, size)) {
                throw file.error(at, String.format("memory range %d [0x%x, 0x%x) has its bytes at 0x%x-0x%x, past the end of the file (0x%x bytes)",
                        i, start, start + size, dataOffset, dataOffset + size, file.size()));
            }
            if (size != 0) {
                runs.add(new Run(start, size, dataOffset, at));
            }
            dataOffset += size;
        }
    }

    /** MINIDUMP_MEMORY_LIST: count, then descriptors that each carry their bytes' RVA. */
    private void memory32(Stream s, List<Run> runs, long[] budget) throws MinidumpFormatException {
        long count = countedEntries(s, MEMORY_DESCRIPTOR_SIZE, "memory descriptors");
        takeFromBudget(budget, count, s.rva());
        for (long i = 0; i < count; i++) {
            long at = s.rva() + 4 + i * MEMORY_DESCRIPTOR_SIZE;
            long start = file.u64(at);
            long size = file.u32(at + 8);
            long rva = file.u32(at + 12);
            checkRange(i, start, size, at);
            if (!file.inside(rva, size)) {
                throw file.error(at, String.format("memory range %d [0x%x, 0x%x) has its bytes at RVA 0x%x-0x%x, past the end of the file (0x%x bytes)",
                        i, start, start + size, rva, rva + size, file.size()));
            }
            if (size != 0) {
                runs.add(new Run(start, size, rva, at));
            }
        }
    }

    private void takeFromBudget(long[] budget, long count, long offset) throws MinidumpFormatException {
        if (Long.compareUnsigned(count, budget[0]) > 0) {
            throw file.error(offset, String.format("%s memory ranges are above the limit of %d", Long.toUnsignedString(count), limits.maxMemoryRanges()));
        }
        budget[0] -= count;
    }

    private void checkRange(long index, long start, long size, long at) throws MinidumpFormatException {
        if (size != 0 && Long.compareUnsigned(start + size, start) < 0 && start + size != 0) {
            throw file.error(at, String.format("memory range %d at 0x%x of 0x%x bytes runs past the top of the address space", index, start, size));
        }
    }

    /** A stream that is a u32 count and that many entries of {@code entrySize} bytes (ThreadList, ModuleList, MemoryList). */
    private long countedEntries(Stream s, int entrySize, String what) throws MinidumpFormatException {
        if (s.size() < 4) {
            throw file.error(s.entryOffset(), String.format("%s of %d bytes has no room for its count", StreamType.name(s.type()), s.size()));
        }
        long count = file.u32(s.rva());
        if (count > (s.size() - 4) / entrySize) {
            throw file.error(s.rva(), String.format("%s counts %d %s of %d bytes, but holds %d bytes after its count",
                    StreamType.name(s.type()), count, what, entrySize, s.size() - 4));
        }
        return count;
    }

    private List<MinidumpModule> modules(Stream s) throws MinidumpFormatException {
        long count = countedEntries(s, MODULE_SIZE, "modules");
        if (count > limits.maxModules()) {
            throw file.error(s.rva(), String.format("%d modules are above the limit of %d", count, limits.maxModules()));
        }
        List<MinidumpModule> modules = new ArrayList<>((int) count);
        for (long i = 0; i < count; i++) {
            long at = s.rva() + 4 + i * MODULE_SIZE;
            long base = file.u64(at);
            long size = file.u32(at + 8);
            long checksum = file.u32(at + 12);
            long timeDateStamp = file.u32(at + 16);
            String name = string(file.u32(at + 20), at + 20, "the name of module " + i);
            modules.add(new MinidumpModule(base, size, name, timeDateStamp, checksum, fileVersion(at + 24)));
        }
        return List.copyOf(modules);
    }

    /**
     * The file version of a module entry's VersionInfo (VS_FIXEDFILEINFO: dwSignature 0xFEEF04BD, dwStrucVersion,
     * dwFileVersionMS = major.minor, dwFileVersionLS = build.revision), or empty without the signature.
     */
    private String fileVersion(long info) throws MinidumpFormatException {
        if (file.u32(info) != 0xfeef04bdL) {
            return "";
        }
        long ms = file.u32(info + 8);
        long ls = file.u32(info + 12);
        return (ms >>> 16) + "." + (ms & 0xffff) + "." + (ls >>> 16) + "." + (ls & 0xffff);
    }

    /** A MINIDUMP_STRING: a u32 length in bytes (even, without the terminator), then UTF-16LE characters. */
    private String string(long rva, long pointerOffset, String what) throws MinidumpFormatException {
        if (!file.inside(rva, 4)) {
            throw file.error(pointerOffset, String.format("%s at RVA 0x%x is past the end of the file (0x%x bytes)", what, rva, file.size()));
        }
        long length = file.u32(rva);
        if (length > limits.maxStringBytes() || length % 2 != 0) {
            throw file.error(rva, String.format("%s is %d bytes long (an even length of at most %d expected)", what, length, limits.maxStringBytes()));
        }
        file.require(rva + 4, length, what);
        return new String(file.bytes(rva + 4, (int) length), StandardCharsets.UTF_16LE);
    }

    private List<MinidumpThread> threads(Stream s) throws MinidumpFormatException {
        long count = countedEntries(s, THREAD_SIZE, "threads");
        if (count > limits.maxThreads()) {
            throw file.error(s.rva(), String.format("%d threads are above the limit of %d", count, limits.maxThreads()));
        }
        List<MinidumpThread> threads = new ArrayList<>((int) count);
        for (long i = 0; i < count; i++) {
            long at = s.rva() + 4 + i * THREAD_SIZE;
            long id = file.u32(at);
            long teb = file.u64(at + 16);
            long stackStart = file.u64(at + 24);
            long stackSize = file.u32(at + 32);
            long stackRva = file.u32(at + 36);
            long contextSize = file.u32(at + 40);
            long contextRva = file.u32(at + 44);
            if (stackSize != 0 && !file.inside(stackRva, stackSize)) {
                throw file.error(at + 24, String.format("the stack of thread %d (0x%x bytes at RVA 0x%x) runs past the end of the file (0x%x bytes)",
                        id, stackSize, stackRva, file.size()));
            }
            if (contextSize != 0 && !file.inside(contextRva, contextSize)) {
                throw file.error(at + 40, String.format("the context of thread %d (0x%x bytes at RVA 0x%x) runs past the end of the file (0x%x bytes)",
                        id, contextSize, contextRva, file.size()));
            }
            boolean registers = contextSize >= CONTEXT_RIP + 8;
            Optional<RegisterSet> set = Optional.empty();
            if (registers) {
                RegisterSet.Builder b = new RegisterSet.Builder();
                for (int r = 0; r < CONTEXT_INTEGER_ORDER.length; r++) {
                    b.set(CONTEXT_INTEGER_ORDER[r], file.u64(contextRva + CONTEXT_RAX + 8L * r));
                }
                set = Optional.of(b.build());
            }
            threads.add(new MinidumpThread(id, teb, stackStart, stackSize, set));
        }
        return List.copyOf(threads);
    }

    /** MINIDUMP_MISC_INFO: SizeOfInfo, Flags1, ProcessId (valid when Flags1 has MISC1_PROCESS_ID). */
    private OptionalLong processId(Stream s) {
        if (s.size() < 12 || (file.u32(s.rva() + 4) & MISC1_PROCESS_ID) == 0) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(file.u32(s.rva() + 8));
    }

    /**
     * clrheap's type-name stream: UTF-8 lines {@code 0x<mt hex> <type name>}, each ending in a line feed, parsed
     * from the mapping into compact storage ({@link TypeNameTable}; no string of the stream or of a line is kept).
     */
    private Map<Long, String> typeNames(Stream s) throws MinidumpFormatException {
        if (s.size() > limits.maxTypeNameBytes()) {
            throw file.error(s.entryOffset(), String.format("the type-name stream has %d bytes, above the limit of %d", s.size(), limits.maxTypeNameBytes()));
        }
        file.require(s.rva(), s.size(), "the type-name stream");
        try {
            return TypeNameTable.parse(file.segment().asSlice(s.rva(), s.size()), TypeNameTable.Syntax.STRICT);
        } catch (TypeNameTable.MalformedLineException e) {
            String what = switch (e.problem()) {
                case MALFORMED -> "a type-name line is not '0x<MethodTable> <name>': " + e.found();
                case NOT_UTF8 -> "the type-name stream is not UTF-8 text";
                case NO_LINE_FEED -> "the type-name stream's last line has no line feed";
                case NAMED_TWICE -> String.format("MethodTable 0x%x is named twice in the type-name stream", e.methodTable());
                case TOO_LONG, TOO_LARGE -> "the type-name stream is refused: " + e.getMessage();
            };
            throw file.error(s.rva() + e.offset(), what + " (line " + e.line() + ")");
        }
    }
}
