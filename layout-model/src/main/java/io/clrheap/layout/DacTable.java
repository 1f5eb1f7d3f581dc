package io.clrheap.layout;

import java.util.Map;
import java.util.OptionalInt;

/**
 * The runtime's exported {@code g_dacTable}: an array of 8-byte absolute addresses of runtime globals, in
 * {@code dacvars.h} order. Its length identifies the build; the indexes of the entries a walker needs are
 * per build (they drift even between servicing releases).
 *
 * @param length  the number of entries ({@code st_size / 8} of the symbol)
 * @param entries dacvars.h name → index
 */
public record DacTable(int length, Map<String, DacTableEntry> entries) {

    public DacTable {
        // ordered by index, so that everything printed or written from it is deterministic
        Map<String, DacTableEntry> sorted = new java.util.LinkedHashMap<>();
        entries.values().stream().sorted(java.util.Comparator.comparingInt(DacTableEntry::index).thenComparing(DacTableEntry::name))
                .forEach(e -> sorted.put(e.name(), e));
        entries = java.util.Collections.unmodifiableMap(sorted);
    }

    public OptionalInt indexOf(String name) {
        DacTableEntry e = entries.get(name);
        return e == null ? OptionalInt.empty() : OptionalInt.of(e.index());
    }

    /** One entry: its index and how that index is known. */
    public record DacTableEntry(String name, int index, Provenance provenance) {
    }
}
