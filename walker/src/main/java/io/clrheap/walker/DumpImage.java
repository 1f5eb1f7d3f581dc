package io.clrheap.walker;

import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.memory.Memory;
import io.clrheap.walker.runtime.LocatedRuntime;
import io.clrheap.walker.runtime.TargetException;
import io.clrheap.walker.runtime.TargetOpener;
import io.clrheap.walker.source.DumpFiles;
import io.clrheap.walker.source.bundle.Bundle;
import io.clrheap.walker.source.elf.ElfCore;
import io.clrheap.walker.source.elf.MappedFile;
import io.clrheap.walker.source.live.LiveProcess;
import io.clrheap.walker.source.minidump.Minidump;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A process image — an ELF core (or {@code .xz}), a fixture bundle, a Windows minidump or a running process — opened as far as its
 * runtime module and {@code g_dacTable}, without identifying the build: the input of {@code derive-profile}, which
 * works on builds clrheap has no profile for ({@link Dumps#open} refuses those). The same readers as {@link Dumps}.
 *
 * @param memory   the process memory
 * @param files    its file mappings
 * @param runtime  the runtime module found in it
 * @param format   what it is, for messages ({@code ELF core}, {@code fixture bundle}, {@code live process})
 * @param name     its name, for messages
 */
public record DumpImage(Memory memory, List<MappedFile> files, LocatedRuntime runtime, String format, String name,
                        AutoCloseable resource) implements AutoCloseable {

    /**
     * Opens {@code file}: an ELF core (xz-compressed or not), a fixture bundle or a Windows minidump (whose PE module's
     * {@code g_dacTable} length is measured: {@link TargetOpener#locateWindows}).
     *
     * @throws IOException     unreadable, not a regular file, or not a dump of a known format
     * @throws TargetException no runtime module in it (see {@link TargetOpener#locate})
     */
    public static DumpImage open(Path file, Optional<Path> moduleFile) throws IOException, TargetException {
        DumpFiles.requireRegularFile(file);
        DumpFiles.Format format = DumpFiles.sniff(file);
        if (format == DumpFiles.Format.MINIDUMP) {
            Minidump dump = Minidump.open(file);
            try {
                LocatedRuntime runtime = new TargetOpener(ProfileLoader.builtIn()).locateWindows(dump, dump.modules());
                return new DumpImage(dump, runtime.mappings(), runtime, "minidump", String.valueOf(file.getFileName()), dump);
            } catch (TargetException | RuntimeException | Error e) {
                DumpSession.closeQuietly(dump, e);
                throw e;
            }
        }
        if (format == DumpFiles.Format.BUNDLE) {
            Bundle bundle = Bundle.open(file);
            return located(bundle, bundle.mappedFiles(), "fixture bundle", String.valueOf(file.getFileName()), moduleFile, bundle);
        }
        ElfCore core = ElfCore.open(file);
        return located(core, core.mappedFiles(), "ELF core", String.valueOf(file.getFileName()), moduleFile, core);
    }

    /**
     * Attaches to running process {@code pid} (read with {@code process_vm_readv} while it runs).
     *
     * @throws io.clrheap.walker.source.live.LiveProcessException no such process, or no permission to read it
     * @throws TargetException                                      no runtime module in it
     */
    public static DumpImage attach(int pid, Optional<Path> moduleFile) throws TargetException {
        LiveProcess process = LiveProcess.open(pid);
        return located(process, process.mappedFiles(), "live process", process.describe(), moduleFile, process);
    }

    private static DumpImage located(Memory memory, List<MappedFile> files, String format, String name, Optional<Path> moduleFile,
                                     AutoCloseable resource) throws TargetException {
        try {
            LocatedRuntime runtime = new TargetOpener(ProfileLoader.builtIn()).locate(memory, files, moduleFile);
            return new DumpImage(memory, files, runtime, format, name, resource);
        } catch (TargetException | RuntimeException | Error e) {
            DumpSession.closeQuietly(resource, e);
            throw e;
        }
    }

    @Override
    public void close() throws IOException {
        try {
            resource.close();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }
}
