package io.clrheap.layout;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The type of a structure field: a primitive of the cDAC descriptor vocabulary ({@code uint32}, {@code pointer},
 * …), a {@code bool32} (the Win32 {@code BOOL}), an embedded structure named by its type, or an array
 * {@code element[count]} of either.
 *
 * @param name        the type as written in the profile, e.g. {@code uint8[480]}
 * @param element     the element type's name, e.g. {@code uint8}
 * @param primitive   the primitive element, or null when the element is a structure
 * @param count       the number of elements (1 when not an array)
 * @param array       whether the type was written as an array
 */
public record FieldType(String name, String element, Primitive primitive, int count, boolean array) {

    /** Primitive element types, with their x64 sizes and signedness. */
    public enum Primitive {
        INT8(1, true), UINT8(1, false), INT16(2, true), UINT16(2, false),
        INT32(4, true), UINT32(4, false), INT64(8, true), UINT64(8, false),
        NINT(8, true), NUINT(8, false), POINTER(8, false), CODEPOINTER(8, false), BOOL32(4, false), BOOL8(1, false);

        private final int size;
        private final boolean signed;

        Primitive(int size, boolean signed) {
            this.size = size;
            this.signed = signed;
        }

        public int size() {
            return size;
        }

        public boolean signed() {
            return signed;
        }

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final Pattern SYNTAX = Pattern.compile("([A-Za-z_][A-Za-z0-9_:]*)(?:\\[([0-9]+)])?");
    private static final Map<String, Primitive> PRIMITIVES = primitiveNames();
    /** An upper bound on array lengths in a profile, so a typo cannot make a 2-GiB structure. */
    public static final int MAX_COUNT = 1 << 20;

    private static Map<String, Primitive> primitiveNames() {
        Map<String, Primitive> m = new java.util.HashMap<>();
        for (Primitive p : Primitive.values()) {
            m.put(p.id(), p);
        }
        return Map.copyOf(m);
    }

    /**
     * Parses a type written in a profile. Structure names are accepted as written; whether they exist is checked
     * by the profile loader.
     *
     * @throws IllegalArgumentException when the text is not a type
     */
    public static FieldType parse(String text) {
        Matcher m = SYNTAX.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a type (expected e.g. uint32, pointer, uint8[120] or a structure name)");
        }
        int count = 1;
        if (m.group(2) != null) {
            try {
                count = Integer.parseInt(m.group(2));
            } catch (NumberFormatException e) {
                count = -1;
            }
            if (count < 1 || count > MAX_COUNT) {
                throw new IllegalArgumentException("the array length of '" + text + "' is outside 1.." + MAX_COUNT);
            }
        }
        return new FieldType(text, m.group(1), PRIMITIVES.get(m.group(1)), count, m.group(2) != null);
    }

    public boolean isPrimitive() {
        return primitive != null;
    }

    /** Size of one element when primitive; structures are sized by the profile. */
    public int primitiveSize() {
        if (primitive == null) {
            throw new IllegalStateException(name + " is a structure, not a primitive");
        }
        return primitive.size();
    }
}
