package io.clrheap.walker.explain;

import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.symbols.DynamicSymbol;
import io.clrheap.walker.symbols.ElfDynamicSymbols;
import io.clrheap.walker.symbols.ModuleHeadersMissingException;
import io.clrheap.walker.symbols.PeExports;
import io.clrheap.walker.runtime.Target;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Looks an export of the runtime module up again, where {@link io.clrheap.walker.runtime.TargetOpener} found it: the
 * ELF dynamic symbols in the dump's memory, the PE export directory in it, or the binary given with {@code --module}.
 * The narration shows the export's address as read here, independently of the opened target.
 */
final class ModuleExportLookup {

    /** How {@code TargetOpener} records PE exports as the place symbols came from. */
    private static final String PE = "dump memory (PE exports)";
    private static final String ELF = "dump memory";

    private final Target target;

    ModuleExportLookup(Target target) {
        this.target = target;
    }

    boolean pe() {
        return target.module().symbolsFrom().equals(PE);
    }

    /** The export (a PE export has no size: 0), or empty when the module does not export it or its tables cannot be read. */
    Optional<DynamicSymbol> find(String name) {
        long base = target.module().base();
        String from = target.module().symbolsFrom();
        try {
            if (from.equals(PE)) {
                return PeExports.inMemory(target.memory(), base).lookup(name).map(a -> new DynamicSymbol(name, a, 0));
            }
            ElfDynamicSymbols symbols = from.equals(ELF) ? ElfDynamicSymbols.inMemory(target.memory(), base)
                    : ElfDynamicSymbols.fromFile(Path.of(from), base);
            return symbols.lookup(name);
        } catch (ModuleHeadersMissingException | MissingMemoryException | IOException | UncheckedIOException e) {
            return Optional.empty();
        }
    }
}
