package io.clrheap.walker;

import io.clrheap.memory.Memory;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetException;
import io.clrheap.walker.runtime.TargetOpener;
import io.clrheap.walker.source.DumpFiles;
import io.clrheap.walker.source.ThreadSource;
import io.clrheap.walker.source.bundle.Bundle;
import io.clrheap.walker.source.elf.ElfCore;
import io.clrheap.walker.source.elf.ElfCoreLimits;
import io.clrheap.walker.source.elf.MappedFile;
import io.clrheap.walker.source.live.LiveProcess;
import io.clrheap.walker.source.minidump.Minidump;
import io.clrheap.walker.source.minidump.MinidumpLimits;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The front door: opens a dump of any format the walker reads, or a running process, as a {@link DumpSession}
 * (ClrMD's {@code DataTarget.LoadDump} → {@code ClrRuntime} → {@code ClrHeap} in one step):
 *
 * <pre>{@code
 * try (DumpSession dump = Dumps.open(Path.of("core.xz"))) {
 *     DumpHeapStat stat = new DumpHeapStat();
 *     dump.walk(stat);
 *     stat.print(out, dump.typeNames(), dump.heap().freeMethodTable());
 * }
 * }</pre>
 *
 * The format is read from the file's first bytes, never from its name: a Windows minidump ({@code MDMP}), a clrheap
 * fixture bundle (an xz-compressed tar with a {@code manifest.json}), otherwise a Linux ELF core (an xz-compressed one
 * is decompressed first, no further than its headers declare, into the cache folder or a temporary file as
 * {@link OpenOptions#coreCache()} says, never beside it). Only a regular file is opened: a directory, FIFO,
 * device or socket is refused by its attributes, before it is opened. An xz file is decompressed only as far as one
 * tar block to tell a bundle from a core; data that are neither are refused then. The runtime module, its build and the profile are found in the dump
 * itself (docs/reference/discovery.md sections 1-4).
 */
public final class Dumps {

    private Dumps() {
    }

    /** {@link #open(Path, OpenOptions)} with {@link OpenOptions#DEFAULT}. */
    public static DumpSession open(Path file) throws IOException, TargetException {
        return open(file, OpenOptions.DEFAULT);
    }

    /**
     * Opens {@code file}.
     *
     * @throws IOException     the file cannot be read, is not a regular file (the message names it and says what it
     *                         is), or is no dump of a known format (the subclasses
     *                         {@code DumpFormatException} and {@code MinidumpFormatException} name the offset)
     * @throws TargetException the dump holds no .NET 8/9/10 runtime clrheap knows ({@link TargetException#kind()} says why)
     */
    public static DumpSession open(Path file, OpenOptions options) throws IOException, TargetException {
        DumpFiles.requireRegularFile(file); // before any open: a FIFO would block it
        DumpFiles.Format format = DumpFiles.sniff(file);
        TargetOpener opener = new TargetOpener(options.profiles());
        if (format == DumpFiles.Format.MINIDUMP) {
            Minidump dump = Minidump.open(file, MinidumpLimits.DEFAULT, options.notes(), options.coreCache());
            return opened(dump, () -> opener.open(dump), "minidump", file, dump.typeNames().orElse(Map.of()), options);
        }
        if (format == DumpFiles.Format.BUNDLE) {
            Bundle bundle = Bundle.open(file);
            return opened(bundle, () -> opener.open(bundle, bundle.mappedFiles(), options.module()), "fixture bundle", file,
                    bundle.typeNames(), options);
        }
        ElfCore core = ElfCore.open(file, options.notes(), ElfCoreLimits.DEFAULT, options.coreCache());
        return opened(core, () -> opener.open(core, core.mappedFiles(), options.module()), "ELF core", file, core.typeNames(), options);
    }

    /**
     * Attaches to running Linux process {@code pid}: its memory is read with {@code process_vm_readv} while it runs
     * (stop it first for a consistent heap: {@code ProcessSuspension}).
     *
     * @throws io.clrheap.walker.source.live.LiveProcessException no such process, or no permission to read it
     * @throws TargetException                                      the process is not a .NET 8/9/10 one clrheap knows (the
     *                                                              message starts with the process's description)
     */
    public static DumpSession attach(int pid, OpenOptions options) throws TargetException {
        return attach(pid, options, List::of);
    }

    /**
     * {@link #attach(int, OpenOptions)} with the threads' registers, for stack roots: a {@code ProcessSuspension} of the
     * process gives them while its threads are stopped.
     */
    public static DumpSession attach(int pid, OpenOptions options, ThreadSource threads) throws TargetException {
        LiveProcess process = LiveProcess.open(pid);
        try {
            Target target = new TargetOpener(options.profiles()).open(process, process.mappedFiles(), options.module());
            return new DumpSession("live process", process.describe(), target, Map.of(), options, process, threads);
        } catch (TargetException e) {
            TargetException said = new TargetException(e.kind(), e.kind() == TargetException.Kind.NOT_A_RUNTIME ? notDotNet(process)
                    : process.describe() + ": " + e.getMessage(), e);
            process.close();
            throw said;
        } catch (RuntimeException | Error e) {
            process.close();
            throw e;
        }
    }

    /**
     * Opens any other process image — an emulated process, a memory source of your own — given its memory and its
     * file mappings (where the runtime module is). Closing the session does not close {@code memory}.
     *
     * @param format     what the image is, for messages (e.g. {@code "emulated process"})
     * @param name       its name, for messages
     * @param typeNames  type names the image carries (MethodTable → name), empty when none
     */
    public static DumpSession of(Memory memory, List<MappedFile> files, String format, String name, Map<Long, String> typeNames,
                                 OpenOptions options) throws TargetException {
        return of(memory, files, format, name, typeNames, options, List::of);
    }

    /** {@link #of(Memory, List, String, String, Map, OpenOptions)} with the image's threads and their registers, for stack roots. */
    public static DumpSession of(Memory memory, List<MappedFile> files, String format, String name, Map<Long, String> typeNames,
                                 OpenOptions options, ThreadSource threads) throws TargetException {
        Target target = new TargetOpener(options.profiles()).open(memory, files, options.module());
        return new DumpSession(format, name, target, typeNames, options, () -> { }, threads);
    }

    /** Finds the runtime in an opened file; the file is closed when that fails. */
    @FunctionalInterface
    private interface RuntimeFinder {
        Target find() throws TargetException;
    }

    private static DumpSession opened(AutoCloseable file, RuntimeFinder finder, String format, Path path, Map<Long, String> typeNames,
                                      OpenOptions options) throws IOException, TargetException {
        try {
            return new DumpSession(format, String.valueOf(path.getFileName()), finder.find(), typeNames, options, file,
                    file instanceof ThreadSource threads ? threads : List::of);
        } catch (TargetException | RuntimeException | Error e) {
            DumpSession.closeQuietly(file, e);
            throw e;
        }
    }

    /** Why a process is not .NET: which modules were looked at, and whether a libcoreclr.so is there at all. */
    private static String notDotNet(LiveProcess process) {
        long files = process.mappedFiles().stream().filter(f -> f.fileOffset() == 0).map(MappedFile::path).distinct().count();
        boolean coreclr = process.mappedFiles().stream().anyMatch(f -> f.path().endsWith("/libcoreclr.so"));
        return process.describe() + " is not a .NET process: " + (coreclr
                ? "it maps libcoreclr.so, but no mapped module exports g_dacTable (the runtime is not CoreCLR 8/9/10, or not started yet)"
                : "no libcoreclr.so in its maps, and none of its " + files + " mapped files is a single-file host with the runtime linked in (exports g_dacTable)");
    }
}
