package io.clrheap.capture;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Trims a full-memory Windows minidump of a .NET process (as {@code MiniDumpWriteDump} writes it: the streams, then
 * the Memory64List's memory from its {@code BaseRva} on) to what a heap walker reads, and blanks the process
 * environment in it. Kept: every byte before {@code BaseRva} (header, directory, every stream) and the memory of
 * every range that is not part of a module image, plus the runtime module's image ({@code coreclr.dll}, or for a
 * single-file host the process executable: the first module of the ModuleList). What a walker needs of the other
 * modules (system DLLs) is nothing; the managed assemblies the runtime loaded are not loader modules and are kept.
 *
 * <p>The Memory64List keeps its place and its {@code BaseRva}; it lists the kept ranges only (the rest of its old
 * descriptors are zeros, its directory entry's DataSize the new size), and the kept memory follows in list order.
 * A thread whose stack descriptor points into the memory (Wine writes 0 there) is pointed at the stack's new place.
 *
 * <p>The environment: the block {@code RTL_USER_PROCESS_PARAMETERS.Environment} points at (TEB+0x60 the PEB,
 * PEB+0x20 the process parameters, +0x80 the environment: winternl.h and the x64 layouts of PEB and
 * RTL_USER_PROCESS_PARAMETERS; UTF-16 {@code KEY=VALUE\0} strings up to an empty one) is overwritten with zeros, and
 * so is every copy of its strings elsewhere, in UTF-16 or in 8-bit form (the C runtime keeps both).
 *
 * <p>Long because trimming is one pass that shares the parsed directory, the memory map and the output offsets.
 */
public final class MinidumpTrimmer {

    static final int SIGNATURE = 0x504d444d; // "MDMP"
    static final int THREAD_LIST = 3;
    static final int MODULE_LIST = 4;
    static final int MEMORY64_LIST = 9;
    static final int MAX_STREAMS = 4096;
    static final long MAX_MODULES = 1 << 16;
    static final long MAX_THREADS = 1 << 20;
    static final long MAX_RANGES = 1 << 24;
    /** How far the environment block is followed before it is taken for damage: Windows caps it at 32,767 chars. */
    static final int MAX_ENVIRONMENT_BYTES = 1 << 20;
    // x64 offsets: TEB.ProcessEnvironmentBlock, PEB.ProcessParameters, RTL_USER_PROCESS_PARAMETERS.Environment
    static final int TEB_PEB = 0x60;
    static final int PEB_PROCESS_PARAMETERS = 0x20;
    static final int PARAMETERS_ENVIRONMENT = 0x80;

    private MinidumpTrimmer() {
    }

    /** What a trim kept, dropped and blanked. */
    public record Result(int keptRanges, int droppedRanges, long keptBytes, long droppedBytes, String runtimeModule, int environmentStrings,
            long environmentBytes, int environmentCopies, long environmentCopyBytes) {

        public String describe() {
            return String.format(Locale.ROOT,
                    "kept %d memory ranges (%,d bytes), dropped %d (%,d bytes); runtime module %s; environment: %d strings (%,d bytes) blanked in the process parameters, %d copies (%,d bytes) elsewhere",
                    keptRanges, keptBytes, droppedRanges, droppedBytes, runtimeModule, environmentStrings, environmentBytes, environmentCopies,
                    environmentCopyBytes);
        }
    }

    /** A minidump that cannot be trimmed; the message names the file and offset. */
    public static final class MinidumpFormatError extends IOException {
        public MinidumpFormatError(String message) {
            super(message);
        }
    }

    /** Writes the trimmed minidump of {@code dump} to {@code out}. */
    public static Result trim(Path dump, OutputStream out) throws IOException {
        try (FileChannel ch = FileChannel.open(dump, StandardOpenOption.READ)) {
            return new Trim(dump, ch).run(out);
        }
    }

    /** Whether an image is a managed assembly (it has a CLR runtime header), and its executable sections [start, end). */
    private record PeImageFacts(boolean managed, List<long[]> executableSections) {
    }

    private record Stream(int index, int type, long size, long rva) {
    }

    private record Module(long base, long size, String name) {
        boolean holds(long start, long length) {
            return Long.compareUnsigned(start, base) >= 0 && Long.compareUnsigned(start - base + length, size) <= 0;
        }
    }

    /** A Memory64List range: its address, size and where its bytes lie in the input. */
    private record Range(long start, long size, long fileOffset) {
        boolean contains(long address) {
            return Long.compareUnsigned(address, start) >= 0 && Long.compareUnsigned(address - start, size) < 0;
        }
    }

    private static final class Trim {
        private final Path file;
        private final FileChannel ch;
        private final DumpFileReads<MinidumpFormatError> reads;
        private final long fileSize;

        Trim(Path file, FileChannel ch) throws IOException {
            this.file = file;
            this.ch = ch;
            this.reads = new DumpFileReads<>(file, ch, MinidumpFormatError::new);
            this.fileSize = reads.size();
        }

        private MinidumpFormatError bad(long offset, String what) {
            return reads.bad(offset, what);
        }

        private ByteBuffer read(long offset, long length, String what) throws IOException {
            return reads.read(offset, length, what);
        }

        Result run(OutputStream out) throws IOException {
            ByteBuffer h = read(0, 32, "the MINIDUMP_HEADER");
            if (h.getInt(0) != SIGNATURE) {
                throw bad(0, String.format(Locale.ROOT, "signature 0x%08x, not MDMP: not a minidump", h.getInt(0)));
            }
            int count = h.getInt(8);
            long directoryRva = Integer.toUnsignedLong(h.getInt(12));
            if (count < 0 || count > MAX_STREAMS) {
                throw bad(8, "declares " + Integer.toUnsignedString(count) + " streams (at most " + MAX_STREAMS + ")");
            }
            ByteBuffer dir = read(directoryRva, 12L * count, "the stream directory");
            List<Stream> streams = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                streams.add(new Stream(i, dir.getInt(12 * i), Integer.toUnsignedLong(dir.getInt(12 * i + 4)), Integer.toUnsignedLong(dir.getInt(12 * i + 8))));
            }
            Stream memory64 = only(streams, MEMORY64_LIST, directoryRva);
            if (memory64 == null) {
                throw bad(directoryRva, "no Memory64ListStream: not a full-memory minidump");
            }
            ByteBuffer m = read(memory64.rva(), 16, "the Memory64ListStream");
            long rangeCount = m.getLong(0);
            long baseRva = m.getLong(8);
            if (rangeCount < 0 || rangeCount > MAX_RANGES || 16 + 16 * rangeCount > memory64.size()) {
                throw bad(memory64.rva(), "the Memory64List declares " + Long.toUnsignedString(rangeCount) + " ranges in a stream of " + memory64.size() + " bytes");
            }
            long prefix = baseRva;
            if (prefix < 32 || prefix > fileSize) {
                throw bad(memory64.rva() + 8, String.format(Locale.ROOT, "BaseRva 0x%x lies outside the file of %d bytes", baseRva, fileSize));
            }
            if (directoryRva + 12L * count > prefix) {
                throw bad(directoryRva, "the stream directory lies after the memory; not a MiniDumpWriteDump layout");
            }
            for (Stream s : streams) {
                if (s.size() > 0 && s.rva() + s.size() > prefix) {
                    throw bad(s.rva(), "stream " + s.index() + " (type " + s.type() + ") lies after the memory; not a MiniDumpWriteDump layout");
                }
            }
            ByteBuffer descriptors = read(memory64.rva() + 16, 16 * rangeCount, "the memory descriptors");
            List<Range> ranges = new ArrayList<>();
            long at = baseRva;
            for (int i = 0; i < rangeCount; i++) {
                long size = descriptors.getLong(16 * i + 8);
                if (size < 0 || size > fileSize - at) {
                    throw bad(memory64.rva() + 16 + 16L * i, String.format(Locale.ROOT, "memory range %d (at 0x%x, %d bytes) runs past the end of the file",
                            i, descriptors.getLong(16 * i), size));
                }
                ranges.add(new Range(descriptors.getLong(16 * i), size, at));
                at += size;
            }
            List<Module> modules = modules(only(streams, MODULE_LIST, directoryRva));
            Module runtime = runtimeModule(modules);
            List<Module> dropped = new ArrayList<>();
            for (Module mod : modules) {
                if (mod != runtime && !image(ranges, mod).managed()) {
                    dropped.add(mod);
                }
            }
            List<long[]> runtimeCode = runtime == null ? List.of() : image(ranges, runtime).executableSections();
            List<Range> kept = new ArrayList<>();
            long keptBytes = 0;
            long droppedBytes = 0;
            for (Range r : ranges) {
                if (keeps(r, dropped, runtimeCode)) {
                    kept.add(r);
                    keptBytes += r.size();
                } else {
                    droppedBytes += r.size();
                }
            }
            List<BlankRange> blanks = new ArrayList<>();
            List<byte[]> strings = new ArrayList<>();
            Stream threads = only(streams, THREAD_LIST, directoryRva);
            int environmentStrings = environment(threads, ranges, blanks, strings);
            long environmentBytes = blanks.stream().mapToLong(BlankRange::length).sum();
            EnvironmentCopies copies = new EnvironmentCopies(strings);
            blanks.forEach(b -> copies.alreadyBlanked(b.fileOffset()));

            ByteBuffer head = read(0, prefix, "the header and streams");
            head.putLong((int) memory64.rva(), kept.size());
            for (int i = 0; i < rangeCount; i++) {
                int o = (int) (memory64.rva() + 16 + 16L * i);
                head.putLong(o, i < kept.size() ? kept.get(i).start() : 0);
                head.putLong(o + 8, i < kept.size() ? kept.get(i).size() : 0);
            }
            head.putInt((int) (directoryRva + 12L * memory64.index() + 4), (int) (16 + 16L * kept.size()));
            List<Long> newOffsets = new ArrayList<>();
            long next = baseRva;
            for (Range r : kept) {
                newOffsets.add(next);
                next += r.size();
            }
            if (threads != null) {
                restack(head, threads, baseRva, kept, newOffsets);
            }
            out.write(head.array(), 0, head.limit());
            blanks.sort(Comparator.comparingLong(BlankRange::fileOffset));
            BlankingCopy copier = new BlankingCopy(ch, file.toString(), blanks, copies);
            for (Range r : kept) {
                copier.copy(out, r.fileOffset(), r.size());
            }
            out.flush();
            return new Result(kept.size(), ranges.size() - kept.size(), keptBytes, droppedBytes, runtime == null ? "(none)" : runtime.name(),
                    environmentStrings, environmentBytes, copies.found(), copies.bytes());
        }

        private Stream only(List<Stream> streams, int type, long directoryRva) throws MinidumpFormatError {
            Stream found = null;
            for (Stream s : streams) {
                if (s.type() == type) {
                    if (found != null) {
                        throw bad(directoryRva + 12L * s.index(), "a second stream of type " + type);
                    }
                    found = s;
                }
            }
            return found;
        }

        private List<Module> modules(Stream list) throws IOException {
            List<Module> modules = new ArrayList<>();
            if (list == null) {
                return modules;
            }
            ByteBuffer b = read(list.rva(), list.size(), "the ModuleListStream");
            long n = Integer.toUnsignedLong(b.getInt(0));
            if (n > MAX_MODULES || 4 + 108 * n > list.size()) {
                throw bad(list.rva(), "the ModuleList declares " + n + " modules in a stream of " + list.size() + " bytes");
            }
            for (int i = 0; i < n; i++) {
                int o = 4 + 108 * i; // MINIDUMP_MODULE: BaseOfImage, SizeOfImage, CheckSum, TimeDateStamp, ModuleNameRva
                long nameRva = Integer.toUnsignedLong(b.getInt(o + 20));
                ByteBuffer length = read(nameRva, 4, "module " + i + "'s name");
                long bytes = Integer.toUnsignedLong(length.getInt(0));
                if (bytes > 0x10000) {
                    throw bad(nameRva, "module " + i + "'s name is " + bytes + " bytes");
                }
                String name = new String(read(nameRva + 4, bytes, "module " + i + "'s name").array(), StandardCharsets.UTF_16LE);
                modules.add(new Module(b.getLong(o), Integer.toUnsignedLong(b.getInt(o + 8)), name));
            }
            return modules;
        }

        /** coreclr.dll when loaded; otherwise the process's executable, the ModuleList's first module: a single-file host. */
        private static Module runtimeModule(List<Module> modules) {
            for (Module m : modules) {
                String name = m.name().toLowerCase(Locale.ROOT);
                if (name.endsWith("\\coreclr.dll") || name.endsWith("/coreclr.dll") || name.equals("coreclr.dll")) {
                    return m;
                }
            }
            return modules.isEmpty() ? null : modules.get(0);
        }

        private static boolean keeps(Range r, List<Module> dropped, List<long[]> runtimeCode) {
            for (Module m : dropped) {
                if (m.holds(r.start(), r.size())) {
                    return false;
                }
            }
            for (long[] code : runtimeCode) {
                if (Long.compareUnsigned(r.start(), code[0]) >= 0 && Long.compareUnsigned(r.start() - code[0] + r.size(), code[1] - code[0]) <= 0) {
                    return false; // the runtime's machine code: no walker reads it
                }
            }
            return true;
        }

        /** What a module's PE headers (in the dump's memory) say; an image whose headers are missing is native code. */
        private PeImageFacts image(List<Range> ranges, Module m) throws IOException {
            long ntHeaders = m.base() + (word(ranges, m.base() + 0x3c) & 0xffffffffL); // IMAGE_DOS_HEADER.e_lfanew
            if ((word(ranges, ntHeaders) & 0xffffffffL) != 0x4550) { // "PE\0\0"
                return new PeImageFacts(false, List.of());
            }
            long fileHeader = word(ranges, ntHeaders + 4 + 2); // NumberOfSections (2), TimeDateStamp (4), ...
            int sections = (int) (fileHeader & 0xffff);
            int optionalSize = (int) (word(ranges, ntHeaders + 4 + 16) & 0xffff); // SizeOfOptionalHeader
            long optional = ntHeaders + 24;
            // NumberOfRvaAndSizes and DataDirectory: at 108 and 112 in a PE32+ optional header (magic 0x20b), at 92 and
            // 96 in a PE32 one (0x10b, what mcs may write); directory 14 is the CLR runtime header
            int magic = (int) (word(ranges, optional) & 0xffff);
            int counts = magic == 0x20b ? 108 : 92;
            long directories = word(ranges, optional + counts) & 0xffffffffL;
            boolean managed = directories > 14 && word(ranges, optional + counts + 4 + 14 * 8) != 0;
            List<long[]> code = new ArrayList<>();
            long sectionTable = optional + optionalSize;
            for (int i = 0; i < Math.min(sections, 96); i++) { // IMAGE_SECTION_HEADER: 40 bytes; the loader allows 96
                long h = sectionTable + 40L * i;
                long sizeAndAddress = word(ranges, h + 8); // VirtualSize, VirtualAddress
                long characteristics = word(ranges, h + 32) >>> 32; // at 36
                if ((characteristics & 0x20000000L) != 0) { // IMAGE_SCN_MEM_EXECUTE
                    long start = m.base() + (sizeAndAddress >>> 32);
                    long size = ((sizeAndAddress & 0xffffffffL) + 0xfff) & ~0xfffL;
                    long[] last = code.isEmpty() ? null : code.get(code.size() - 1);
                    if (last != null && last[1] == start) {
                        last[1] = start + size; // .text and .CLR_UEF are one range in the dump: one piece of code
                    } else {
                        code.add(new long[] {start, start + size});
                    }
                }
            }
            return new PeImageFacts(managed, code);
        }

        /** Thread stacks whose descriptors point into the memory: at the stack's new place, or 0 when it was dropped. */
        private void restack(ByteBuffer head, Stream threads, long baseRva, List<Range> kept, List<Long> newOffsets) throws MinidumpFormatError {
            long n = Integer.toUnsignedLong(head.getInt((int) threads.rva()));
            if (n > MAX_THREADS || 4 + 48 * n > threads.size()) {
                throw bad(threads.rva(), "the ThreadList declares " + n + " threads in a stream of " + threads.size() + " bytes");
            }
            for (int i = 0; i < n; i++) {
                int o = (int) (threads.rva() + 4 + 48L * i); // MINIDUMP_THREAD: Stack at +24 (start, DataSize, Rva)
                long rva = Integer.toUnsignedLong(head.getInt(o + 36));
                if (rva < baseRva) {
                    continue;
                }
                long stack = head.getLong(o + 24);
                long moved = 0;
                for (int k = 0; k < kept.size(); k++) {
                    if (kept.get(k).contains(stack)) {
                        moved = newOffsets.get(k) + (stack - kept.get(k).start());
                    }
                }
                if (moved > 0xffffffffL) {
                    moved = 0; // beyond a 32-bit RVA's reach: the stack is still in the Memory64List
                }
                head.putInt(o + 36, (int) moved);
            }
        }

        /** Blanks the environment block of the process parameters; returns how many strings it held. */
        private int environment(Stream threads, List<Range> ranges, List<BlankRange> blanks, List<byte[]> strings) throws IOException {
            if (threads == null || threads.size() < 4 + 48) {
                return 0;
            }
            long teb = read(threads.rva() + 4 + 16, 8, "the first thread's TEB").getLong(0);
            long peb = word(ranges, teb + TEB_PEB);
            long parameters = peb == 0 ? 0 : word(ranges, peb + PEB_PROCESS_PARAMETERS);
            long environment = parameters == 0 ? 0 : word(ranges, parameters + PARAMETERS_ENVIRONMENT);
            Range r = environment == 0 ? null : rangeOf(ranges, environment);
            if (r == null) {
                return 0;
            }
            long offset = r.fileOffset() + (environment - r.start());
            long available = Math.min(r.size() - (environment - r.start()), MAX_ENVIRONMENT_BYTES);
            ByteBuffer block = read(offset, available & ~1L, "the environment block");
            int pos = 0;
            int found = 0;
            while (pos + 2 <= block.limit()) {
                int end = pos;
                while (end + 2 <= block.limit() && block.getShort(end) != 0) {
                    end += 2;
                }
                if (end == pos || end + 2 > block.limit()) {
                    break; // the empty string ends the block
                }
                byte[] wide = new byte[end - pos];
                block.get(pos, wide);
                strings.add(wide);
                strings.add(new String(wide, StandardCharsets.UTF_16LE).getBytes(StandardCharsets.UTF_8));
                blanks.add(new BlankRange(offset + pos, end - pos));
                found++;
                pos = end + 2;
            }
            return found;
        }

        private long word(List<Range> ranges, long address) throws IOException {
            Range r = rangeOf(ranges, address);
            if (r == null || Long.compareUnsigned(address - r.start() + 8, r.size()) > 0) {
                return 0;
            }
            return read(r.fileOffset() + (address - r.start()), 8, "memory").getLong(0);
        }

        private static Range rangeOf(List<Range> ranges, long address) {
            for (Range r : ranges) {
                if (r.contains(address)) {
                    return r;
                }
            }
            return null;
        }
    }
}
