package io.clrheap.walker.explain;

import io.clrheap.layout.FieldLayout;
import io.clrheap.layout.FieldType;
import io.clrheap.layout.Provenance;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.Memory;
import java.util.Locale;
import java.util.function.LongFunction;

/**
 * Reads a field the way the profile describes it and says so: each read becomes an {@link ExplainStep} with the
 * field's offset, type and provenance and the bytes around it. The narrators read through this only, so every value
 * they show is one they read.
 */
final class FieldReader {

    private final Memory memory;
    private final RuntimeLayout layout;

    FieldReader(Memory memory, RuntimeLayout layout) {
        this.memory = memory;
        this.layout = layout;
    }

    Memory memory() {
        return memory;
    }

    RuntimeLayout layout() {
        return layout;
    }

    /** {@code type.field} of the structure at {@code base}. */
    ExplainStep field(String type, long base, String field, LongFunction<String> meaning) {
        FieldLayout f = layout.field(type, field);
        int size = f.type().isPrimitive() ? f.type().primitiveSize() : 8;
        boolean signed = f.type().isPrimitive() && f.type().primitive().signed();
        return read(type, base, field, f.offset(), f.type().isPrimitive() ? f.type().element() : f.type().name(), size, signed,
                source(f.provenance()), meaning);
    }

    /** Element {@code index} of an array field {@code type.field} (e.g. {@code DotNetRuntimeInfo.RuntimeVersion[0]}). */
    ExplainStep element(String type, long base, String field, int index, LongFunction<String> meaning) {
        FieldLayout f = layout.field(type, field);
        FieldType t = f.type();
        int size = t.primitiveSize();
        return read(type, base, field + "[" + index + "]", f.offset() + (long) index * size, t.element(), size,
                t.primitive().signed(), source(f.provenance()), meaning);
    }

    /**
     * A read the profile has no structure field for: a {@code g_dacTable} entry, an element of a published offset
     * array, a global variable. {@code source} says how its place is known.
     */
    ExplainStep raw(String structure, long base, String field, long offset, String type, int size, boolean signed, String source,
                    LongFunction<String> meaning) {
        return read(structure, base, field, offset, type, size, signed, source, meaning);
    }

    private ExplainStep read(String structure, long base, String field, long offset, String type, int size, boolean signed,
                             String source, LongFunction<String> meaning) {
        long address = base + offset;
        long value = switch (size) {
            case 1 -> signed ? memory.readByte(address) : memory.readU8(address);
            case 2 -> signed ? memory.readShort(address) : memory.readU16(address);
            case 4 -> signed ? memory.readInt(address) : memory.readU32(address);
            default -> memory.readLong(address);
        };
        return new ExplainStep(structure, base, field, offset, type, address, value, meaning.apply(value), source,
                HexExcerpt.of(memory, address, size));
    }

    /** A profile provenance in the layout command's short form: {@code dump: E:all}. */
    static String source(Provenance p) {
        return p.certainty().id() + ": " + p.sourceKey();
    }

    static String hex(long value) {
        return "0x" + Long.toHexString(value);
    }

    static String format(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
