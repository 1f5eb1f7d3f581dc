package io.clrheap.walker.runtime;

import io.clrheap.layout.TargetOs;
import io.clrheap.walker.source.elf.MappedFile;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The runtime module of a process image, found but not identified ({@link TargetOpener#locate}): where it is, where
 * its {@code g_dacTable} is and how long, its file mappings, and its exports.
 *
 * @param module   the module, its base and {@code g_dacTable} (address and {@code st_size / 8})
 * @param mappings the module's file mappings (NT_FILE entries of its path), in the dump's order
 * @param exports  export name → address, empty when not exported or unreadable
 * @param os       the system the runtime was built for: Linux for an ELF module, Windows for a PE one
 */
public record LocatedRuntime(RuntimeModule module, List<MappedFile> mappings, Function<String, Optional<Long>> exports,
                             Optional<IdentityReader.Found> identity, TargetOs os) {

    public LocatedRuntime {
        mappings = List.copyOf(mappings);
    }

    /** True when {@code address} lies in one of the module's mappings. */
    public boolean inModule(long address) {
        for (MappedFile f : mappings) {
            if (Long.compareUnsigned(address, f.start()) >= 0 && Long.compareUnsigned(address, f.end()) < 0) {
                return true;
            }
        }
        return false;
    }
}
