package io.clrheap.cli;

import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.memory.Memory;
import io.clrheap.walker.source.elf.DumpFormatException;
import io.clrheap.walker.source.elf.ElfCore;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetException;
import io.clrheap.walker.runtime.TargetOpener;
import io.clrheap.walker.source.bundle.Bundle;
import io.clrheap.walker.source.minidump.Minidump;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A dump file opened for walking, whatever its format: an ELF core (or {@code .xz} of one), a minidump, a
 * fixture bundle. Knows how to find the
 * runtime in it and carries the type names a clrheap fixture holds beside the memory.
 */
final class OpenedDump implements AutoCloseable {

    private final String format;
    private final Memory memory;
    private final Map<Long, String> typeNames;
    private final TargetFinder finder;
    private final AutoCloseable resource;

    /** How the runtime module is found in this kind of dump. */
    @FunctionalInterface
    private interface TargetFinder {
        Target find(TargetOpener opener, Optional<Path> module) throws TargetException;
    }

    private OpenedDump(String format, Memory memory, Map<Long, String> typeNames, TargetFinder finder, AutoCloseable resource) {
        this.format = format;
        this.memory = memory;
        this.typeNames = typeNames;
        this.finder = finder;
        this.resource = resource;
    }

    /** Opens {@code file}; {@code notes} receives one-line notes (e.g. that an .xz is being decompressed). */
    static OpenedDump open(Path file, Consumer<String> notes) throws DumpFormatException, IOException {
        if (Minidump.isMinidump(file)) {
            Minidump dump = Minidump.open(file);
            return new OpenedDump("minidump", dump, dump.typeNames().orElse(Map.of()), (opener, module) -> opener.open(dump), dump);
        }
        if (Bundle.isBundle(file)) {
            Bundle bundle = Bundle.open(file);
            return new OpenedDump("fixture bundle", bundle, bundle.typeNames(),
                    (opener, module) -> opener.open(bundle, bundle.mappedFiles(), module), bundle);
        }
        ElfCore core = ElfCore.open(file, notes);
        return new OpenedDump("ELF core", core, core.typeNames(), (opener, module) -> opener.open(core, core.mappedFiles(), module), core);
    }

    String format() {
        return format;
    }

    Memory memory() {
        return memory;
    }

    /** The names a clrheap fixture carries (empty for real dumps). */
    Map<Long, String> typeNames() {
        return typeNames;
    }

    Target target(Optional<Path> module) throws TargetException {
        return finder.find(new TargetOpener(ProfileLoader.builtIn()), module);
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
