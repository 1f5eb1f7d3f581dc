package io.clrheap.dac.host;

import io.clrheap.dac.library.CallTrace;
import io.clrheap.dac.library.DacException;
import io.clrheap.dac.library.DacLibrary;
import io.clrheap.dac.walk.SosFieldWalk;
import io.clrheap.dac.dbi.DacDbi;
import io.clrheap.dac.com.ComPointer;
import io.clrheap.dac.library.DacCallException;
import io.clrheap.dac.sos.SosDac;
import io.clrheap.dac.walk.SosHeapWalk;
import io.clrheap.dac.datatarget.ClrDataTarget;
import io.clrheap.dac.datatarget.CorDebugDataTarget;
import io.clrheap.dac.datatarget.MappedImageMemory;
import io.clrheap.dac.datatarget.TargetReads;
import io.clrheap.memory.Memory;
import io.clrheap.walker.source.bundle.Bundle;
import io.clrheap.walker.source.elf.ElfCore;
import io.clrheap.walker.source.minidump.Minidump;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The child process that loads the DAC and walks a dump through it, writing what the DAC answers to stdout (see
 * {@link WireWriter}). Started by {@link io.clrheap.dac.DacHostProcess}; not a user command.
 *
 * <p>Arguments: {@code DAC DUMP RUNTIME_BASE RUNTIME_FILE_NAME JOB TRACE_FILE MAX_OBJECTS METHOD_TABLES IMAGE_FOLDERS}:
 * {@code METHOD_TABLES} a file of the MethodTables a {@link DacHostJob#FIELDS} job lists (8 bytes each, big-endian),
 * {@code -} for the walks; {@code IMAGE_FOLDERS} the folders ({@link java.io.File#pathSeparator}-separated) where
 * the images of file mappings the dump lacks may be found ({@link MappedImageMemory}), {@code -} for none.
 */
public final class DacHost {

    private DacHost() {
    }

    public static void main(String[] args) throws Exception {
        // stdout carries the records alone: nothing else may print to it
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16));
        System.setOut(System.err);
        WireWriter writer = new WireWriter(out);
        if (args.length != 9) {
            writer.error("usage: DacHost DAC DUMP RUNTIME_BASE RUNTIME_FILE_NAME JOB TRACE_FILE MAX_OBJECTS METHOD_TABLES IMAGE_FOLDERS");
            writer.end();
            System.exit(2);
        }
        Path dac = Path.of(args[0]);
        Path dump = Path.of(args[1]);
        long runtimeBase = Long.parseUnsignedLong(args[2], 16);
        String runtimeName = args[3];
        DacHostJob job = DacHostJob.valueOf(args[4]);
        CallTrace trace = CallTraceFile.create(Path.of(args[5]));
        long maxObjects = Long.parseLong(args[6]);
        String methodTables = args[7];
        List<Path> imageFolders = args[8].equals("-") ? List.of()
                : java.util.Arrays.stream(args[8].split(java.io.File.pathSeparator)).map(Path::of).toList();
        int exit = 0;
        try (AutoCloseable source = open(dump)) {
            Memory memory = withImages(source, imageFolders);
            Arena arena = Arena.global(); // the DAC keeps our data target for its lifetime, which is the process's
            TargetReads reads = new TargetReads(memory);
            trace.enter("DllMain", 0);
            DacLibrary library = DacLibrary.load(dac, arena);
            switch (job) {
                case SOS -> {
                    ClrDataTarget target = new ClrDataTarget(reads, runtimeBase, runtimeName, arena);
                    trace.enter("CLRDataCreateInstance", 0);
                    ComPointer process = library.createInstance(target.address());
                    SosHeapWalk walk = new SosHeapWalk(new SosDac(process, arena, trace), writer);
                    walk.walk();
                    writer.failedReads(reads.failureCount(), reads.failures().stream().map(Object::toString).toList());
                    writer.walkDone();
                    walk.typeNames();
                }
                case FIELDS -> {
                    ClrDataTarget target = new ClrDataTarget(reads, runtimeBase, runtimeName, arena);
                    trace.enter("CLRDataCreateInstance", 0);
                    ComPointer process = library.createInstance(target.address());
                    new SosFieldWalk(new SosDac(process, arena, trace), writer).list(readMethodTables(Path.of(methodTables)));
                    writer.failedReads(reads.failureCount(), reads.failures().stream().map(Object::toString).toList());
                    writer.walkDone();
                }
                case HEAPWALK -> {
                    CorDebugDataTarget target = new CorDebugDataTarget(reads, arena);
                    trace.enter("DacDbiInterfaceInstance", runtimeBase);
                    ComPointer dbi = library.dbiInstance(target.address(), runtimeBase, target.allocator(), target.metadataLookup());
                    long n = new DacDbi(dbi, arena, trace).walkHeap(writer::heapObject, maxObjects);
                    writer.note("WalkHeap returned " + n + " objects");
                    writer.failedReads(reads.failureCount(), reads.failures().stream().map(Object::toString).toList());
                    writer.walkDone();
                }
            }
            writer.note(String.format("%d reads of target memory, %d bytes", reads.readCount(), reads.bytesRead()));
        } catch (DacCallException e) {
            writer.callFailed(e.call(), e.argument(), e.hresult());
            writer.error(e.getMessage());
            exit = 1;
        } catch (DacException e) {
            writer.error(e.getMessage());
            exit = 1;
        } catch (Exception e) {
            writer.error(dump + ": " + e);
            exit = 3;
        }
        writer.end();
        out.flush();
        System.exit(exit);
    }

    /** A listing's MethodTables are ours (written by the parent); the cap only keeps a wrong file from exhausting memory. */
    private static final long MAX_METHOD_TABLES = 1 << 22;

    private static List<Long> readMethodTables(Path file) throws java.io.IOException {
        long size = Files.size(file);
        if (size % 8 != 0 || size / 8 > MAX_METHOD_TABLES) {
            throw new java.io.IOException(file + ": " + size + " bytes is no list of at most " + MAX_METHOD_TABLES + " MethodTables");
        }
        List<Long> list = new ArrayList<>((int) (size / 8));
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            for (long i = 0; i < size / 8; i++) {
                list.add(in.readLong());
            }
        }
        return list;
    }

    /** The prefix of a live process in place of a dump path: {@code pid:1234}. */
    public static final String PID_PREFIX = "pid:";

    /** {@code source} with the images of {@code imageFolders} ({@link MappedImageMemory}), or {@code source} itself. */
    private static Memory withImages(AutoCloseable source, List<Path> imageFolders) throws java.io.IOException {
        if (!imageFolders.isEmpty() && source instanceof ElfCore core) {
            return MappedImageMemory.of(core, core.mappedFiles(), imageFolders);
        }
        if (!imageFolders.isEmpty() && source instanceof Bundle bundle) {
            return MappedImageMemory.of(bundle, bundle.mappedFiles(), imageFolders);
        }
        return (Memory) source;
    }

    private static AutoCloseable open(Path dump) throws Exception {
        String name = dump.toString();
        int slash = name.lastIndexOf('/');
        if (name.substring(slash + 1).startsWith(PID_PREFIX)) {
            return io.clrheap.walker.source.live.LiveProcess.open(Integer.parseInt(name.substring(slash + 1 + PID_PREFIX.length())));
        }
        if (Minidump.isMinidump(dump)) {
            throw new IllegalArgumentException("a minidump is a Windows process's dump: the Linux DAC (libmscordaccore.so) reads Linux ELF cores and bundles");
        }
        if (Bundle.isBundle(dump)) {
            return Bundle.open(dump);
        }
        return ElfCore.open(dump);
    }
}
