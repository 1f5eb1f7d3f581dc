package io.clrheap.walker.source;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * The type names clrheap's fixture files carry beside the memory (real dumps have none: tools read names from
 * metadata): UTF-8 text, one line per MethodTable in ascending order, {@code 0x<mt lowercase hex> <type name>}. The
 * ELF core holds it in a note owned by {@code clrheap} (type {@link #ELF_NOTE_TYPE}), the minidump in a user stream,
 * the bundle in {@code type-names.txt}.
 */
public final class TypeNameSidecar {

    /** The ELF note's owner name. */
    public static final String ELF_NOTE_OWNER = "clrheap";
    /** The ELF note's n_type: "CLRH" as little-endian bytes, a value no core note uses (tools that name notes by type alone, as eu-readelf does, show it as unknown). */
    public static final int ELF_NOTE_TYPE = 0x48524c43;

    private TypeNameSidecar() {
    }

    /**
     * The sidecar text of {@code names}: what the ELF note, the minidump stream and the bundle's file all hold.
     *
     * @throws IllegalArgumentException for a name that cannot be one line (empty, a line break, spaces at either end)
     */
    public static byte[] format(Map<Long, String> names) {
        Map<Long, String> sorted = new TreeMap<>(Long::compareUnsigned);
        sorted.putAll(names);
        StringBuilder s = new StringBuilder();
        sorted.forEach((mt, name) -> {
            if (name.isBlank() || name.indexOf('\n') >= 0 || name.indexOf('\r') >= 0 || !name.equals(name.strip())) {
                throw new IllegalArgumentException(String.format("the type name of MethodTable 0x%x cannot be one line of type names: '%s'", mt, name));
            }
            s.append("0x").append(Long.toHexString(mt)).append(' ').append(name).append('\n');
        });
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Reads sidecar text into compact storage (see {@link TypeNameTable}): no string of the text or of a line is kept.
     *
     * @param source names where the text came from in errors (a file and offset)
     * @throws IllegalArgumentException naming the source and line of a line that is not {@code 0x<hex> name} (a
     *                                  {@link TypeNameTable.MalformedLineException} as its cause, with the offset)
     */
    public static TypeNameTable parse(byte[] text, String source) {
        return parse(MemorySegment.ofArray(text), source);
    }

    /** As {@link #parse(byte[], String)}, reading the bytes where they are (a slice of a mapped file). */
    public static TypeNameTable parse(MemorySegment text, String source) {
        try {
            return TypeNameTable.parse(text, TypeNameTable.Syntax.SIDECAR);
        } catch (TypeNameTable.MalformedLineException e) {
            throw new IllegalArgumentException(source + ", " + e.getMessage(), e);
        }
    }
}
