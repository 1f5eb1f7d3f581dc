package io.clrheap.walker.explain;

/**
 * One read of the pointer chase: which structure and field, where it lies, what it holds, and how the field's place
 * is known.
 *
 * @param structure the runtime structure read (a profile type such as {@code GcDacVars}, or what the memory is, such
 *                  as {@code g_dacTable} or {@code int32[] gc_heap_field_offsets})
 * @param base      the structure's address
 * @param field     the field (a profile field name, or an element such as {@code [20] g_gcDacGlobals})
 * @param offset    the field's offset from {@code base}
 * @param type      the field's type ({@code pointer}, {@code uint32}, ...)
 * @param address   where the bytes were read: {@code base + offset}
 * @param value     what was read (sign- or zero-extended as the type says)
 * @param meaning   what the value says, e.g. {@code → int 2} or {@code the gen2 list's first heap_segment}
 * @param source    where the offset comes from: the profile's provenance ({@code dump: E:all}), or {@code published}
 * @param excerpt   the bytes around the read, the field's marked
 */
public record ExplainStep(String structure, long base, String field, long offset, String type, long address, long value,
                          String meaning, String source, HexExcerpt excerpt) {
}
