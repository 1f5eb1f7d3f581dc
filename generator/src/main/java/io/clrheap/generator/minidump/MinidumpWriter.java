package io.clrheap.generator.minidump;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.truth.GroundTruth;
import io.clrheap.emulator.module.Platform;
import io.clrheap.emulator.module.EmulatedModule;
import io.clrheap.emulator.space.Reservation;
import io.clrheap.memory.MemoryRange;
import io.clrheap.walker.source.TypeNameSidecar;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Writes an emulated Windows process as a minidump, the file Windows debuggers, lldb and ClrMD open. Facts: the
 * structure sizes and offsets of docs/reference/dump-formats.md section 3 (from mingw-w64's dbghelp.h and LLVM's Minidump.h) and
 * the minimal stream set of its section 3.6.
 *
 * <p>The file, in order: MINIDUMP_HEADER ({@code MDMP}, version 0xA793, flags MiniDumpWithFullMemory); the stream
 * directory; SystemInfoStream (AMD64, Windows 10.0.19045, an empty CSD version string); ThreadListStream (one
 * thread per runtime thread of the ground truth, with its AMD64 CONTEXT, a TEB and a small stack: see
 * {@link ThreadStack}); ModuleListStream ({@code coreclr.dll} at its base with SizeOfImage, TimeDateStamp, file
 * version and full path); MiscInfoStream (the process id); the type-name stream (a user stream of type
 * 0x636C7268, {@code 'clrh'}: UTF-8 lines {@code 0x<MethodTable, lowercase hex> <type name>\n}, sorted by
 * MethodTable, the form {@code io.clrheap.walker.report.TypeNames.load} reads); Memory64ListStream; and last, the
 * memory's bytes from the list's 64-bit BaseRva on, range after range in address order.
 *
 * <p>The memory is every range the process wrote ({@code touchedRanges()}) and the threads' TEBs and stacks. It is
 * streamed from the process memory through a FileChannel a megabyte at a time, never whole on the Java heap, so a
 * dump may exceed 4 GiB (only the memory comes after the 32-bit RVAs' reach). The same process gives the same bytes:
 * nothing comes from the clock (the header's TimeDateStamp is the module's) or from hash order.
 */
public final class MinidumpWriter {

    static final int SIGNATURE = 0x504d444d; // "MDMP"
    static final int VERSION = 0xa793;
    /** MINIDUMP_TYPE MiniDumpWithFullMemory: every committed range of the process is in the dump. */
    static final long WITH_FULL_MEMORY = 0x2;
    static final int HEADER_SIZE = 32;
    static final int DIRECTORY_ENTRY_SIZE = 12;
    static final int SYSTEM_INFO_SIZE = 56;
    static final int THREAD_SIZE = 48;
    static final int MODULE_SIZE = 108;
    static final int MISC_INFO_SIZE = 24;
    static final int MEMORY64_DESCRIPTOR_SIZE = 16;
    private static final int STREAMS = 6;
    private static final int COPY_BUFFER = 1 << 20;
    /** The highest file offset a 32-bit RVA reaches: everything but the memory's bytes must end below it. */
    private static final long RVA_LIMIT = 0xffff_ffffL;

    private MinidumpWriter() {
    }

    /**
     * Writes {@code process}, an emulated Windows process ({@link Platform#WINDOWS}), to {@code file}, replacing it.
     * On failure the partial file is deleted.
     *
     * @throws IllegalArgumentException when the process was built for Linux: a minidump holds a Windows process
     */
    public static void write(EmulatedRuntime process, Path file) throws IOException {
        if (process.platform() != Platform.WINDOWS) {
            throw new IllegalArgumentException("a minidump holds a Windows process, and " + process.scenario().name()
                    + " was built for " + process.platform() + ": build it with RuntimeBuilder.platform(Platform.WINDOWS)");
        }
        // written beside the target under a temporary name and moved into place: a failed or interrupted run leaves no dump
        Path partial = Files.createTempFile(file.toAbsolutePath().getParent(), file.getFileName() + ".", ".partial");
        try {
            try (FileChannel out = FileChannel.open(partial, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                new MinidumpWriter.Plan(process).write(out);
            }
            readableByAll(partial);
            Files.move(partial, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException | Error e) {
            Files.deleteIfExists(partial);
            throw e;
        }
    }

    /** rw-r--r--, as a file made by hand (a temporary file is private). */
    private static void readableByAll(Path file) throws IOException {
        try {
            Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: its defaults stand
        }
    }

    /** Where everything goes: computed first, then written in one pass. */
    private static final class Plan {

        private final EmulatedRuntime process;
        private final EmulatedModule module;
        private final List<ThreadStack> stacks;
        private final List<MemoryRun> memory;
        private final long processId;
        private final byte[] typeNames;
        private final byte[] moduleName;

        // file offsets
        private final long directory = HEADER_SIZE;
        private final long systemInfo;
        private final long csdVersion;
        private final long threadList;
        private final long contexts;
        private final long moduleList;
        private final long moduleNameAt;
        private final long miscInfo;
        private final long typeNamesAt;
        private final long memory64;
        private final long memoryBytes;

        Plan(EmulatedRuntime process) {
            this.process = process;
            this.module = process.module();
            List<GroundTruth.ThreadInfo> threads = process.groundTruth().threads();
            // Linux has pid = the main thread's id; the emulated process keeps that number on Windows too
            this.processId = threads.isEmpty() ? 1 : threads.getFirst().osId();
            this.stacks = ThreadStack.plan(threads);
            this.memory = memory(process, stacks, processId);
            this.typeNames = TypeNameSidecar.format(process.typeNames());
            this.moduleName = minidumpString(module.path());

            long at = directory + (long) STREAMS * DIRECTORY_ENTRY_SIZE;
            systemInfo = align(at, 8);
            csdVersion = systemInfo + SYSTEM_INFO_SIZE;
            threadList = align(csdVersion + minidumpString("").length, 8);
            contexts = align(threadList + 4 + (long) THREAD_SIZE * stacks.size(), 16);
            moduleList = align(contexts + (long) AmdContext.SIZE * stacks.size(), 8);
            moduleNameAt = align(moduleList + 4 + MODULE_SIZE, 4);
            miscInfo = align(moduleNameAt + moduleName.length, 8);
            typeNamesAt = align(miscInfo + MISC_INFO_SIZE, 8);
            memory64 = align(typeNamesAt + typeNames.length, 8);
            memoryBytes = align(memory64 + 16 + (long) MEMORY64_DESCRIPTOR_SIZE * memory.size(), 16);
            if (memoryBytes > Integer.MAX_VALUE) {
                throw new IllegalStateException(String.format("the minidump's streams take 0x%x bytes before the memory: more than one buffer holds",
                        memoryBytes));
            }
        }

        /** The process's written ranges and the threads' TEBs and stacks, in address order, none overlapping. */
        private static List<MemoryRun> memory(EmulatedRuntime process, List<ThreadStack> stacks, long processId) {
            List<MemoryRun> runs = new ArrayList<>();
            for (MemoryRange r : process.memory().touchedRanges()) {
                runs.add(new MemoryRun(r.start(), r.length(), null));
            }
            for (ThreadStack s : stacks) {
                for (Reservation r : process.memory().reservations()) {
                    if (Long.compareUnsigned(s.teb(), r.end()) < 0 && Long.compareUnsigned(r.start(), s.stackTop()) < 0) {
                        throw new IllegalStateException(String.format("the stack area of thread %d [0x%x, 0x%x) overlaps the process's %s",
                                s.threadId(), s.teb(), s.stackTop(), r.name()));
                    }
                }
                runs.add(new MemoryRun(s.teb(), ThreadStack.TEB_SIZE, s.tebBytes(processId)));
                runs.add(new MemoryRun(s.stackBase(), s.stackSize(), new byte[(int) s.stackSize()]));
            }
            runs.sort(Comparator.comparing(MemoryRun::start, Long::compareUnsigned));
            return List.copyOf(runs);
        }

        /** {@code 0x<mt> <name>\n} per MethodTable, by MethodTable (unsigned). */

        /** MINIDUMP_STRING: the length in bytes (without the terminator), UTF-16LE characters, a NUL character. */
        private static byte[] minidumpString(String s) {
            byte[] chars = s.getBytes(StandardCharsets.UTF_16LE);
            ByteBuffer b = ByteBuffer.allocate(4 + chars.length + 2).order(ByteOrder.LITTLE_ENDIAN);
            b.putInt(chars.length).put(chars).putShort((short) 0);
            return b.array();
        }

        void write(FileChannel out) throws IOException {
            ByteBuffer head = ByteBuffer.allocate((int) memoryBytes).order(ByteOrder.LITTLE_ENDIAN);
            header(head);
            directory(head);
            systemInfo(head);
            threads(head);
            modules(head);
            miscInfo(head);
            head.put((int) typeNamesAt, typeNames);
            memoryList(head);
            head.position(0);
            writeFully(out, head);
            memoryBytes(out);
        }

        private void header(ByteBuffer b) {
            b.putInt(0, SIGNATURE);
            b.putInt(4, VERSION);                // the implementation-specific high half: 0
            b.putInt(8, STREAMS);
            b.putInt(12, (int) directory);
            b.putInt(16, 0);                     // CheckSum: none
            b.putInt(20, module.timeDateStamp()); // no clock: the module's stamp stands for the dump's time
            b.putLong(24, WITH_FULL_MEMORY);
        }

        private void directory(ByteBuffer b) {
            long[][] entries = {
                {StreamType.SYSTEM_INFO, SYSTEM_INFO_SIZE, systemInfo},
                {StreamType.THREAD_LIST, 4 + (long) THREAD_SIZE * stacks.size(), threadList},
                {StreamType.MODULE_LIST, 4 + MODULE_SIZE, moduleList},
                {StreamType.MISC_INFO, MISC_INFO_SIZE, miscInfo},
                {StreamType.TYPE_NAMES, typeNames.length, typeNamesAt},
                {StreamType.MEMORY64_LIST, 16 + (long) MEMORY64_DESCRIPTOR_SIZE * memory.size(), memory64},
            };
            for (int i = 0; i < entries.length; i++) {
                long at = directory + (long) DIRECTORY_ENTRY_SIZE * i;
                b.putInt((int) at, (int) entries[i][0]);
                b.putInt((int) at + 4, Math.toIntExact(entries[i][1]));
                b.putInt((int) at + 8, (int) entries[i][2]);
            }
        }

        /** MINIDUMP_SYSTEM_INFO of an x64 Windows 10 22H2 workstation, and its empty CSD version string. */
        private void systemInfo(ByteBuffer b) {
            int at = (int) systemInfo;
            b.putShort(at, (short) 9);           // PROCESSOR_ARCHITECTURE_AMD64
            b.putShort(at + 2, (short) 6);       // ProcessorLevel
            b.putShort(at + 4, (short) 0x9e0a);  // ProcessorRevision
            b.put(at + 6, (byte) Math.min(255, Math.max(1, process.scenario().heaps()))); // server GC: a heap per processor
            b.put(at + 7, (byte) 1);             // VER_NT_WORKSTATION
            b.putInt(at + 8, 10);                // MajorVersion
            b.putInt(at + 12, 0);                // MinorVersion
            b.putInt(at + 16, 19045);            // BuildNumber
            b.putInt(at + 20, 2);                // VER_PLATFORM_WIN32_NT
            b.putInt(at + 24, (int) csdVersion);
            b.putShort(at + 28, (short) 0x100);  // VER_SUITE_SINGLEUSERTS
            b.put(at + 32, "GenuineIntel".getBytes(StandardCharsets.US_ASCII)); // CPUID 0: VendorId
            b.putInt(at + 44, 0x000906ea);       // CPUID 1: EAX (family 6, model 0x9e)
            b.putInt(at + 48, 0xbfebfbff);       // CPUID 1: EDX
            b.put((int) csdVersion, minidumpString(""));
        }

        /** The thread list: each thread's stack (its bytes are among the memory's) and context. */
        private void threads(ByteBuffer b) {
            b.putInt((int) threadList, stacks.size());
            long rip = codeAddress();
            for (int i = 0; i < stacks.size(); i++) {
                ThreadStack s = stacks.get(i);
                int at = (int) threadList + 4 + THREAD_SIZE * i;
                long context = contexts + (long) AmdContext.SIZE * i;
                b.putInt(at, (int) s.threadId());
                b.putInt(at + 4, 0);             // SuspendCount
                b.putInt(at + 8, 0x20);          // NORMAL_PRIORITY_CLASS
                b.putInt(at + 12, 0);            // THREAD_PRIORITY_NORMAL
                b.putLong(at + 16, s.teb());
                b.putLong(at + 24, s.stackBase());
                b.putInt(at + 32, (int) s.stackSize());
                b.putInt(at + 36, (int) rvaOf(s.stackBase()));
                b.putInt(at + 40, AmdContext.SIZE);
                b.putInt(at + 44, (int) context);
                b.put((int) context, AmdContext.of(rip, s.rsp(), s.rsp() + 0x100));
            }
        }

        /** Where the threads stand: the start of the module's code (BaseOfCode of its PE optional header). */
        private long codeAddress() {
            long nt = module.base() + process.memory().readU32(module.base() + 0x3c);
            return module.base() + process.memory().readU32(nt + 24 + 20);
        }

        /** The file offset of a memory address's byte: the range holding it, from BaseRva on. */
        private long rvaOf(long address) {
            long at = memoryBytes;
            for (MemoryRun r : memory) {
                if (Long.compareUnsigned(address - r.start(), r.size()) < 0) {
                    long rva = at + (address - r.start());
                    if (rva > RVA_LIMIT) {
                        throw new IllegalStateException(String.format("the stack at 0x%x lands at file offset 0x%x, beyond a 32-bit RVA", address, rva));
                    }
                    return rva;
                }
                at += r.size();
            }
            throw new IllegalStateException(String.format("0x%x is not in the dump's memory", address));
        }

        /** MINIDUMP_MODULE for the runtime module, with its VS_FIXEDFILEINFO, and its name. */
        private void modules(ByteBuffer b) {
            int at = (int) moduleList;
            b.putInt(at, 1);
            at += 4;
            b.putLong(at, module.base());
            b.putInt(at + 8, Math.toIntExact(module.size()));
            b.putInt(at + 12, 0);                // CheckSum: the PE header's, 0
            b.putInt(at + 16, module.timeDateStamp());
            b.putInt(at + 20, (int) moduleNameAt);
            int info = at + 24;                  // VS_FIXEDFILEINFO
            b.putInt(info, 0xfeef04bd);          // dwSignature
            b.putInt(info + 4, 0x0001_0000);     // dwStrucVersion 1.0
            b.putInt(info + 8, module.fileVersion().mostSignificant());
            b.putInt(info + 12, module.fileVersion().leastSignificant());
            b.putInt(info + 16, module.fileVersion().mostSignificant());  // product version: the runtime's, the same
            b.putInt(info + 20, module.fileVersion().leastSignificant());
            b.putInt(info + 24, 0x3f);           // dwFileFlagsMask
            b.putInt(info + 28, 0);              // dwFileFlags: a release build
            b.putInt(info + 32, 0x0004_0004);    // VOS_NT_WINDOWS32
            b.putInt(info + 36, 2);              // VFT_DLL
            // dwFileSubtype, dwFileDate: 0; CvRecord, MiscRecord: none; Reserved0, Reserved1: 0
            b.put((int) moduleNameAt, moduleName);
        }

        /** MINIDUMP_MISC_INFO with the process id (MISC1_PROCESS_ID); no times. */
        private void miscInfo(ByteBuffer b) {
            int at = (int) miscInfo;
            b.putInt(at, MISC_INFO_SIZE);
            b.putInt(at + 4, 1);
            b.putInt(at + 8, (int) processId);
        }

        /** MINIDUMP_MEMORY64_LIST: count, BaseRva, then (start, size) per range in the order the bytes follow. */
        private void memoryList(ByteBuffer b) {
            int at = (int) memory64;
            b.putLong(at, memory.size());
            b.putLong(at + 8, memoryBytes);
            for (int i = 0; i < memory.size(); i++) {
                b.putLong(at + 16 + MEMORY64_DESCRIPTOR_SIZE * i, memory.get(i).start());
                b.putLong(at + 24 + MEMORY64_DESCRIPTOR_SIZE * i, memory.get(i).size());
            }
        }

        /** The memory's bytes, range after range, read from the process a buffer at a time. */
        private void memoryBytes(FileChannel out) throws IOException {
            byte[] buffer = new byte[COPY_BUFFER];
            for (MemoryRun r : memory) {
                if (r.bytes() != null) {
                    writeFully(out, ByteBuffer.wrap(r.bytes()));
                    continue;
                }
                for (long a = r.start(); a != r.end(); ) {
                    int n = (int) Math.min(buffer.length, r.end() - a);
                    process.memory().read(a, buffer, 0, n);
                    writeFully(out, ByteBuffer.wrap(buffer, 0, n));
                    a += n;
                }
            }
        }

        private static void writeFully(FileChannel out, ByteBuffer bytes) throws IOException {
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
        }

        private static long align(long v, long a) {
            return (v + a - 1) & -a;
        }
    }
}
