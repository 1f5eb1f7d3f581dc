package io.clrheap.walker.heap;

import java.util.Locale;

/**
 * One read of a runtime structure's field: which field, where, and how its offset is known. What a {@link Problem}
 * names as the read that caused it, and what discovery's read events are made of.
 *
 * @param structure the structure read: a profile type ({@code heap_segment}), a published offset array
 *                  ({@code gc_heap_field_offsets}), {@code g_dacTable}, or a runtime variable ({@code n_heaps})
 * @param field     the field: a profile field name ({@code next}), an element ({@code [20] g_gcDacGlobals}), or
 *                  {@code (value)} for a variable read whole
 * @param base      the structure's address
 * @param offset    the field's offset from {@code base}
 * @param source    where the offset comes from: {@code profile, dump: E:all} (the profile's provenance of the
 *                  field), {@code published by the GC} (a GcDacVars offset array), or where a variable's address
 *                  was found
 */
public record FieldRead(String structure, String field, long base, long offset, String source) {

    /** Where the bytes are: {@code base + offset}. */
    public long address() {
        return base + offset;
    }

    /** The field as the runtime's source writes it: {@code heap_segment.next}, {@code g_dacTable[20] g_gcDacGlobals}. */
    public String name() {
        if (field.startsWith("[")) {
            return structure + field;
        }
        return field.startsWith("(") ? structure + " " + field : structure + "." + field;
    }

    /** {@code heap_segment.next at 0x7f3a10000030 (offset 0x30: profile, dump: E:all)}. */
    public String describe() {
        return String.format(Locale.ROOT, "%s at 0x%x (offset 0x%x: %s)", name(), address(), offset, source);
    }

    /** {@link #describe()}: the address and offset in hex. */
    @Override
    public String toString() {
        return "FieldRead[" + describe() + "]";
    }
}
