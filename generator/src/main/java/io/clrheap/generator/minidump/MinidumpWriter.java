package io.clrheap.generator.minidump;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.truth.GroundTruth;
import io.clrheap.emulator.module.Platform;
import io.clrheap.emulator.module.EmulatedModule;
import io.clrheap.walker.source.PendingFile;
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
import java.util.List;

/**
 * Writes an emulated Windows process as a minidump, the file Windows debuggers, lldb and ClrMD open, with the streams
 * real Windows dbghelp writes for the full dump .NET's tools take (dotnet-dump collect --type Full and createdump
 * --full on Windows call MiniDumpWriteDump with MiniDumpWithFullMemory | WithDataSegs | WithHandleData |
 * WithUnloadedModules | WithFullMemoryInfo | WithThreadInfo | WithTokenInformation: dotnet/diagnostics
 * src/Tools/dotnet-dump/Dumper.Windows.cs, dotnet/runtime src/coreclr/debug/createdump/createdumpmain.cpp
 * GetMiniDumpType). Facts: the structure sizes and offsets of docs/reference/dump-formats.md section 3 (Microsoft's
 * minidumpapiset.h, mingw-w64's dbghelp.h, LLVM's Minidump.h), each stream's class citing its own; what real Windows
 * writes and Wine's dbghelp does not, section 3.10.
 *
 * <p>The stream directory, in the order real dbghelp lists the streams (section 3.10): ThreadListStream (one thread per
 * runtime thread of the ground truth, with its AMD64 CONTEXT holding the emulated thread's registers, its stack and a
 * TEB: {@link ThreadStack});
 * ThreadInfoListStream ({@link ThreadInfoList}); ModuleListStream ({@code coreclr.dll} at its base with SizeOfImage,
 * TimeDateStamp, the build's file version in VS_FIXEDFILEINFO, its full path and the CodeView record of its PE debug
 * directory); UnloadedModuleListStream (none: {@link UnloadedModuleList}); Memory64ListStream; MemoryInfoListStream
 * (every region of the address space: {@link VirtualMemoryMap}, {@link MemoryInfoList}); SystemInfoStream (AMD64,
 * Windows 10.0.19045, an empty CSD version string); MiscInfoStream (MINIDUMP_MISC_INFO_5: {@link MiscInfo});
 * HandleDataStream (no handles: {@link HandleDataStream}); and clrheap's type-name stream (a user stream of type
 * 0x636C7268, {@code 'clrh'}: UTF-8 lines {@code 0x<MethodTable, lowercase hex> <type name>\n}, sorted by MethodTable, the
 * form {@code io.clrheap.walker.report.TypeNames.load} reads). The header's Flags are the MINIDUMP_TYPE those tools pass
 * but WithTokenInformation: the TokenStream's contents are not documented, so clrheap writes none and does not claim
 * one. In the file, SystemInfo and MiscInfo come first after the directory, as in dbghelp's dumps; last come the
 * memory's bytes, from the Memory64List's 64-bit BaseRva on, range after range in address order.
 *
 * <p>The memory is every committed region of the address space: the ranges the process wrote (a private allocation
 * is committed where it was written, reserved elsewhere; the threads' stacks are such allocations), its PE images whole
 * (coreclr.dll and the assemblies'), and the threads' TEBs. It is streamed from the process memory through a FileChannel a megabyte at a time,
 * never whole on the Java heap, so a dump may exceed 4 GiB (only the memory comes after the 32-bit RVAs' reach). The
 * same process gives the same bytes: nothing comes from the clock (the header's TimeDateStamp is the module's, and
 * stands for the process's and its threads' creation time too) or from hash order.
 *
 * <p>Long because the file is laid out in one place: the directory's order, each stream's offset and the memory's
 * BaseRva depend on one another, and the streams that point into other streams (module names, CodeView records,
 * thread contexts) are placed with them.
 */
public final class MinidumpWriter {

    static final int SIGNATURE = 0x504d444d; // "MDMP"
    static final int VERSION = 0xa793;
    // MINIDUMP_TYPE bits (Microsoft's minidumpapiset.h, _MINIDUMP_TYPE; dotnet-dump's Dumper.Windows.cs has the same values)
    /** MINIDUMP_TYPE MiniDumpWithDataSegs. */
    static final long WITH_DATA_SEGS = 0x1;
    /** MINIDUMP_TYPE MiniDumpWithFullMemory: every committed range of the process is in the dump. */
    static final long WITH_FULL_MEMORY = 0x2;
    static final long WITH_HANDLE_DATA = 0x4;
    static final long WITH_UNLOADED_MODULES = 0x20;
    static final long WITH_FULL_MEMORY_INFO = 0x800;
    static final long WITH_THREAD_INFO = 0x1000;
    /** The header's Flags: dotnet-dump's and createdump's full dump but WithTokenInformation (0x40000). */
    static final long FLAGS = WITH_FULL_MEMORY | WITH_DATA_SEGS | WITH_HANDLE_DATA | WITH_UNLOADED_MODULES | WITH_FULL_MEMORY_INFO
            | WITH_THREAD_INFO;
    static final int HEADER_SIZE = 32;
    static final int DIRECTORY_ENTRY_SIZE = 12;
    static final int SYSTEM_INFO_SIZE = 56;
    static final int THREAD_SIZE = 48;
    static final int MODULE_SIZE = 108;
    static final int MEMORY64_DESCRIPTOR_SIZE = 16;
    /** Seconds from 1601-01-01 (FILETIME's epoch) to 1970-01-01 (time_t's). */
    static final long FILETIME_EPOCH_SECONDS = 11_644_473_600L;
    private static final int STREAMS = 10;
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
        // written beside the target under a hidden temporary name and renamed into place when complete: a failed or
        // interrupted run (SIGINT, SIGTERM, a full disk) leaves no dump
        PendingFile.write(file, partial -> {
            try (FileChannel out = FileChannel.open(partial, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                new MinidumpWriter.Plan(process).write(out);
            }
        });
    }

    /** Where everything goes: computed first, then written in one pass. */
    private static final class Plan {

        private final EmulatedRuntime process;
        private final EmulatedModule module;
        private final List<ThreadStack> stacks;
        private final List<MemoryRegion> regions;
        private final List<MemoryRun> memory;
        private final long processId;
        private final long createTime;
        private final byte[] typeNames;
        private final byte[] moduleName;
        private final byte[] codeView;

        // file offsets
        private final long directory = HEADER_SIZE;
        private final long systemInfo;
        private final long csdVersion;
        private final long miscInfo;
        private final long threadList;
        private final long contexts;
        private final long threadInfoList;
        private final long moduleList;
        private final long moduleNameAt;
        private final long codeViewAt;
        private final long unloadedModules;
        private final long handleData;
        private final long memoryInfoList;
        private final long typeNamesAt;
        private final long memory64;
        private final long memoryBytes;

        Plan(EmulatedRuntime process) {
            this.process = process;
            this.module = process.module();
            List<GroundTruth.ThreadInfo> threads = process.groundTruth().threads();
            // Linux has pid = the main thread's id; the emulated process keeps that number on Windows too
            this.processId = threads.isEmpty() ? 1 : threads.getFirst().osId();
            this.createTime = Integer.toUnsignedLong(module.timeDateStamp());
            this.stacks = ThreadStack.plan(threads, process.groundTruth().stacks());
            this.regions = VirtualMemoryMap.of(process, stacks);
            this.memory = memory(regions, stacks, processId);
            this.typeNames = TypeNameSidecar.format(process.typeNames());
            this.moduleName = minidumpString(module.path());
            this.codeView = ImageCodeView.of(process.memory(), module.base()).orElse(new byte[0]);

            long at = directory + (long) STREAMS * DIRECTORY_ENTRY_SIZE;
            systemInfo = align(at, 8);
            csdVersion = systemInfo + SYSTEM_INFO_SIZE;
            miscInfo = align(csdVersion + minidumpString("").length, 8);
            threadList = align(miscInfo + MiscInfo.SIZE, 8);
            contexts = align(threadList + 4 + (long) THREAD_SIZE * stacks.size(), 16);
            threadInfoList = align(contexts + (long) AmdContext.SIZE * stacks.size(), 8);
            moduleList = align(threadInfoList + ThreadInfoList.size(stacks.size()), 8);
            moduleNameAt = align(moduleList + 4 + MODULE_SIZE, 4);
            codeViewAt = align(moduleNameAt + moduleName.length, 4);
            unloadedModules = align(codeViewAt + codeView.length, 8);
            handleData = align(unloadedModules + UnloadedModuleList.HEADER_SIZE, 8);
            memoryInfoList = align(handleData + HandleDataStream.HEADER_SIZE, 8);
            typeNamesAt = align(memoryInfoList + MemoryInfoList.size(regions.size()), 8);
            memory64 = align(typeNamesAt + typeNames.length, 8);
            memoryBytes = align(memory64 + 16 + (long) MEMORY64_DESCRIPTOR_SIZE * memory.size(), 16);
            if (memoryBytes > Integer.MAX_VALUE) {
                throw new IllegalStateException(String.format("the minidump's streams take 0x%x bytes before the memory: more than one buffer holds",
                        memoryBytes));
            }
        }

        /**
         * The dump's memory: every committed region, in address order; a thread's TEB with the bytes the writer makes
         * for it, everything else (the stacks too) read from the process as it is written.
         */
        private static List<MemoryRun> memory(List<MemoryRegion> regions, List<ThreadStack> stacks, long processId) {
            List<MemoryRun> runs = new ArrayList<>();
            for (MemoryRegion r : regions) {
                if (!r.committed()) {
                    continue;
                }
                byte[] bytes = null;
                for (ThreadStack s : stacks) {
                    if (r.start() == s.teb() && r.size() == ThreadStack.TEB_SIZE) {
                        bytes = s.tebBytes(processId);
                    }
                }
                runs.add(new MemoryRun(r.start(), r.size(), bytes));
            }
            return List.copyOf(runs);
        }

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
            head.put((int) miscInfo, MiscInfo.bytes(processId, createTime));
            threads(head);
            head.put((int) threadInfoList, ThreadInfoList.bytes(stacks, fileTime(createTime), codeAddress(), affinity()));
            modules(head);
            head.put((int) unloadedModules, UnloadedModuleList.bytes());
            head.put((int) handleData, HandleDataStream.bytes());
            head.put((int) memoryInfoList, MemoryInfoList.bytes(regions));
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
            b.putLong(24, FLAGS);
        }

        /** The directory, in the order real dbghelp lists the streams (docs/reference/dump-formats.md section 3.10). */
        private void directory(ByteBuffer b) {
            long[][] entries = {
                {StreamType.THREAD_LIST, 4 + (long) THREAD_SIZE * stacks.size(), threadList},
                {StreamType.THREAD_INFO_LIST, ThreadInfoList.size(stacks.size()), threadInfoList},
                {StreamType.MODULE_LIST, 4 + MODULE_SIZE, moduleList},
                {StreamType.UNLOADED_MODULE_LIST, UnloadedModuleList.HEADER_SIZE, unloadedModules},
                {StreamType.MEMORY64_LIST, 16 + (long) MEMORY64_DESCRIPTOR_SIZE * memory.size(), memory64},
                {StreamType.MEMORY_INFO_LIST, MemoryInfoList.size(regions.size()), memoryInfoList},
                {StreamType.SYSTEM_INFO, SYSTEM_INFO_SIZE, systemInfo},
                {StreamType.MISC_INFO, MiscInfo.SIZE, miscInfo},
                {StreamType.HANDLE_DATA, HandleDataStream.HEADER_SIZE, handleData},
                {StreamType.TYPE_NAMES, typeNames.length, typeNamesAt},
            };
            for (int i = 0; i < entries.length; i++) {
                long at = directory + (long) DIRECTORY_ENTRY_SIZE * i;
                b.putInt((int) at, (int) entries[i][0]);
                b.putInt((int) at + 4, Math.toIntExact(entries[i][1]));
                b.putInt((int) at + 8, (int) entries[i][2]);
            }
        }

        /** The number of processors SystemInfo names: a heap per processor under server GC. */
        private int processors() {
            return Math.min(255, Math.max(1, process.scenario().heaps()));
        }

        /** Every processor: the threads' affinity mask. */
        private long affinity() {
            return processors() >= 64 ? -1L : (1L << processors()) - 1;
        }

        /** A time_t as a FILETIME: 100-ns intervals since 1601-01-01. */
        private static long fileTime(long seconds) {
            return (seconds + FILETIME_EPOCH_SECONDS) * 10_000_000L;
        }

        /** MINIDUMP_SYSTEM_INFO of an x64 Windows 10 22H2 workstation, and its empty CSD version string. */
        private void systemInfo(ByteBuffer b) {
            int at = (int) systemInfo;
            b.putShort(at, (short) 9);           // PROCESSOR_ARCHITECTURE_AMD64
            b.putShort(at + 2, (short) 6);       // ProcessorLevel
            b.putShort(at + 4, (short) 0x9e0a);  // ProcessorRevision
            b.put(at + 6, (byte) processors());
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

        /** The thread list: each thread's stack from rsp to its base (its bytes are among the memory's) and context. */
        private void threads(ByteBuffer b) {
            b.putInt((int) threadList, stacks.size());
            for (int i = 0; i < stacks.size(); i++) {
                ThreadStack s = stacks.get(i);
                int at = (int) threadList + 4 + THREAD_SIZE * i;
                long context = contexts + (long) AmdContext.SIZE * i;
                b.putInt(at, (int) s.threadId());
                b.putInt(at + 4, 0);             // SuspendCount
                b.putInt(at + 8, 0x20);          // NORMAL_PRIORITY_CLASS
                b.putInt(at + 12, 0);            // THREAD_PRIORITY_NORMAL
                b.putLong(at + 16, s.teb());
                b.putLong(at + 24, s.rsp());
                b.putInt(at + 32, (int) s.capturedSize());
                b.putInt(at + 36, (int) rvaOf(s.rsp()));
                b.putInt(at + 40, AmdContext.SIZE);
                b.putInt(at + 44, (int) context);
                b.put((int) context, AmdContext.of(s.registers()));
            }
        }

        /** Where the threads started: the start of the module's code (BaseOfCode of its PE optional header). */
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

        /**
         * MINIDUMP_MODULE for the runtime module (108 bytes, packed: BaseOfImage @0, SizeOfImage @8, CheckSum @12,
         * TimeDateStamp @16, ModuleNameRva @20, VS_FIXEDFILEINFO @24 (52 bytes), CvRecord @76, MiscRecord @84,
         * Reserved0/1 @92), with its name and its CodeView record: the RSDS record of the image's debug directory, copied
         * as dbghelp copies it, by which ClrMD and dotnet-symbol name the runtime's PDB.
         */
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
            // dwFileSubtype, dwFileDate: 0
            b.putInt(at + 76, codeView.length);  // CvRecord: MINIDUMP_LOCATION_DESCRIPTOR (DataSize, Rva)
            b.putInt(at + 80, codeView.length == 0 ? 0 : (int) codeViewAt);
            // MiscRecord: none (the IMAGE_DEBUG_MISC record of old images); Reserved0, Reserved1: 0
            b.put((int) moduleNameAt, moduleName);
            b.put((int) codeViewAt, codeView);
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
