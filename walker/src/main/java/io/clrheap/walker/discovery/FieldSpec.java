package io.clrheap.walker.discovery;

import io.clrheap.layout.FieldLayout;
import io.clrheap.layout.Provenance;
import io.clrheap.walker.heap.FieldRead;

/**
 * A field discovery reads, resolved once per discovery: its structure and name, offset, type and size, and where the
 * offset comes from. With a base address it is a {@link FieldRead}.
 */
record FieldSpec(String structure, String field, long offset, String type, int size, boolean signed, String source) {

    /** {@code type.field} as the profile lays it out, its provenance the source. */
    static FieldSpec profile(String type, FieldLayout f) {
        boolean primitive = f.type().isPrimitive();
        return new FieldSpec(type, f.name(), f.offset(), primitive ? f.type().element() : f.type().name(), primitive ? f.type().primitiveSize() : 8,
                primitive && f.type().primitive().signed(), provenance(f.provenance()));
    }

    /** A runtime variable read whole, at an address found {@code from} (e.g. {@code g_dacTable}). */
    static FieldSpec variable(String name, String type, int size, boolean signed, String from) {
        return new FieldSpec(name, "(value)", 0, type, size, signed, from);
    }

    /** {@code profile, dump: E:all}: the profile says so, with its certainty and source key. */
    static String provenance(Provenance p) {
        return "profile, " + p.certainty().id() + ": " + p.sourceKey();
    }

    FieldRead at(long base) {
        return new FieldRead(structure, field, base, offset, source);
    }
}
