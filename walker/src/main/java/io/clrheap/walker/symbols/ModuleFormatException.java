package io.clrheap.walker.symbols;

import java.io.IOException;

/**
 * A module's ELF image (its file, or its bytes in a dump) is not a 64-bit little-endian x86-64 ELF shared object or
 * executable with dynamic symbols, or its headers or tables are corrupt. The message names the module, what is
 * wrong and where, as a file offset or an address in {@code 0x} hex. Methods that cannot throw a checked exception
 * ({@link ElfDynamicSymbols#inMemory}, {@link ElfDynamicSymbols#lookup}) wrap it in an
 * {@link java.io.UncheckedIOException}.
 */
public final class ModuleFormatException extends IOException {

    public ModuleFormatException(String message) {
        super(message);
    }
}
