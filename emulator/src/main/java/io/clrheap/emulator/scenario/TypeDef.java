package io.clrheap.emulator.scenario;

import java.util.List;
import java.util.Locale;

/**
 * A managed type an emulated process allocates: its name, shape, BaseSize, component size and reference fields. The
 * emulator gives it a MethodTable with the runtime's flags (docs/reference/clr-layouts.md, MethodTable flag bits), an EEClass that
 * points back to it, and, when it holds references, the GC pointer-series descriptor the runtime places just before
 * the MethodTable (gcdesc.h).
 *
 * @param name          the type name, e.g. {@code MyApp.Order}: {@code [Namespace.]Name(+Nested)*} and, for arrays, the
 *                      suffix of the shape ({@code []}; {@code [*]}, {@code [,]}… by rank) after the element's name ({@link TypeName})
 * @param shape         class, boxed value, string, array (of values or of references), multi-dimensional array
 * @param baseSize      BaseSize: the object's size without components, header word included
 * @param componentSize bytes per element (arrays, strings), else 0
 * @param pointerFields reference fields at the start of a class's or boxed value's fields (offset 8 on): a shorthand
 *                      for {@code references} 8, 16, … 8 x pointerFields (give one or the other)
 * @param rank          dimensions of a multi-dimensional array, else 1
 * @param defaultConstructor a class with a public parameterless constructor (HasDefaultCtor); classes only
 * @param references    where the references are, ascending: for a class or boxed value the offsets of its reference
 *                      fields from the object start (the MethodTable word is offset 0; 8 to BaseSize - 16); for an
 *                      array of values (shape {@code array}) the offsets of the references inside one element (0 to
 *                      componentSize - 8; the component size then a multiple of 8): an array of structs with
 *                      references. Empty for the other shapes (an array of references holds references by its shape)
 * @param finalizer     a class with a finalizer (MTFlags HasFinalizer): its objects are registered in the
 *                      finalization queue; classes only
 * @param fields        the fields it declares (a class or boxed value): its EEClass gets their FieldDescs and its
 *                      assembly their Field rows; BaseSize and references then follow from their layout
 *                      ({@link FieldLayout}). Empty for a type described by size and references only
 * @param parent        the base class, a class of the scenario with fields; null for System.Object (or
 *                      System.ValueType, System.Array by shape)
 */
public record TypeDef(String name, Shape shape, int baseSize, int componentSize, int pointerFields, int rank, boolean defaultConstructor,
                      List<Integer> references, boolean finalizer, List<FieldSpec> fields, TypeDef parent) {

    /** What kind of type it is. */
    public enum Shape {
        /** A class instance: fixed size. */
        CLASS,
        /** A boxed value type. */
        BOXED,
        /** System.String: UTF-16 characters after a 4-byte length. */
        STRING,
        /** A single-dimensional zero-based array of values. */
        ARRAY,
        /** A single-dimensional zero-based array of references. */
        REFERENCE_ARRAY,
        /** A multi-dimensional array (its bounds follow the length: BaseSize 24 + 8 x rank). */
        MD_ARRAY;

        public String id() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        public static Shape parse(String id) {
            for (Shape s : values()) {
                if (s.id().equals(id)) {
                    return s;
                }
            }
            throw new IllegalArgumentException("unknown shape '" + id + "' (known: class, boxed, string, array, reference-array, md-array)");
        }
    }

    /** HasComponentSize (RTSMD: low 16 bits are the component size). */
    static final int HAS_COMPONENT_SIZE = 0x80000000;
    /** Category_Array | IfArrayThenSzArray (RTSMD; int[] = 0x800a0004 in the real dumps). */
    static final int SZ_ARRAY = 0x000a0000;
    /** Category_Array without the SZ bit: a multi-dimensional array (RTSMD). */
    static final int MD_ARRAY_CATEGORY = 0x00080000;
    /** Category_ValueType (RTSMD). */
    static final int VALUE_TYPE = 0x00040000;
    /** ContainsGCPointers: a CGCDesc precedes the MethodTable (RTSMD; gcdesc.h). */
    public static final int CONTAINS_GC_POINTERS = 0x01000000;
    /** HasDefaultCtor, a low flag (methodtable.h WFLAGS_LOW_ENUM; System.Object, System.Array, Leaf in the real dumps). */
    static final int HAS_DEFAULT_CTOR = 0x00000200;
    /** HasFinalizer (RTSMD; the profile's method_table.flags.has_finalizer; System.Threading.Thread 0x01100202 in the real dumps). */
    public static final int HAS_FINALIZER = 0x00100000;
    /**
     * IsRegStructPassed, a low flag of Unix x64 (methodtable.h, UNIX_AMD64_ABI): a value type the System V ABI passes
     * in registers, at most 16 bytes (GCHandle and RuntimeTypeHandle, 8 bytes each, carry it in the real dumps).
     */
    static final int IS_REG_STRUCT_PASSED = 0x00000800;
    /** Offset of a single-dimensional array's first element on x64: MethodTable, 4-byte length, 4 bytes of padding. */
    public static final int SZ_ARRAY_DATA_OFFSET = 16;
    /** The smallest object, and the smallest BaseSize of a class (object.min_size). */
    private static final int MIN_OBJECT = 24;

    public TypeDef {
        references = references == null ? List.of() : List.copyOf(references);
        fields = fields == null ? List.of() : List.copyOf(fields);
        if (!fields.isEmpty() || parent != null) {
            checkFields(name, shape, baseSize, references, fields, parent);
        }
        if (pointerFields > 0 && !references.isEmpty()) {
            throw new IllegalArgumentException(name + ": give pointerFields or references, not both");
        }
        if (pointerFields > 0 && (shape == Shape.CLASS || shape == Shape.BOXED) && 8L * pointerFields <= baseSize - 16) {
            // the shorthand: the first pointerFields words after the MethodTable word
            references = java.util.stream.IntStream.rangeClosed(1, pointerFields).map(i -> 8 * i).boxed().toList();
            pointerFields = 0;
        }
        if (finalizer && shape != Shape.CLASS) {
            throw new IllegalArgumentException(name + ": only a class has a finalizer flag");
        }
        if (name == null || name.isBlank() || name.length() > 1024) {
            throw new IllegalArgumentException("a type needs a name of 1 to 1024 characters");
        }
        if (!name.equals(name.strip()) || name.chars().anyMatch(c -> Character.isISOControl(c))) {
            // names are one field of one line in the answer key and the type-name sidecars of every format
            throw new IllegalArgumentException("type name '" + name.replaceAll("\\p{Cntrl}", "?")
                    + "': no control characters (tabs, line breaks) and no spaces at either end");
        }
        switch (shape) {
            case CLASS, BOXED -> {
                if (baseSize < MIN_OBJECT || baseSize % 8 != 0 || baseSize > 0x10000) {
                    throw new IllegalArgumentException(name + ": BaseSize of a class or boxed value is a multiple of 8 in [24, 65536], not " + baseSize);
                }
                if (componentSize != 0) {
                    throw new IllegalArgumentException(name + ": a class or boxed value has no components");
                }
                if (pointerFields != 0) {
                    throw new IllegalArgumentException(name + ": " + pointerFields + " reference fields do not fit in BaseSize " + baseSize);
                }
                checkOffsets(name, references, 8, baseSize - 16, "a reference field's offset");
            }
            case STRING -> {
                if (baseSize != 22 || componentSize != 2 || pointerFields != 0 || !references.isEmpty()) {
                    throw new IllegalArgumentException(name + ": a string has BaseSize 22 and 2-byte components (the real dumps)");
                }
            }
            case ARRAY, REFERENCE_ARRAY, MD_ARRAY -> {
                int expected = shape == Shape.MD_ARRAY ? 24 + 8 * rank : 24;
                if (baseSize != expected) {
                    throw new IllegalArgumentException(name + ": an array of rank " + rank + " has BaseSize " + expected + ", not " + baseSize);
                }
                if (componentSize < 1 || componentSize > 0xffff || (shape == Shape.REFERENCE_ARRAY && componentSize != 8)) {
                    throw new IllegalArgumentException(name + ": component size " + componentSize + " (1..65535; 8 for references)");
                }
                if (pointerFields != 0 || (!references.isEmpty() && shape != Shape.ARRAY)) {
                    throw new IllegalArgumentException(name + ": arrays have no reference fields (reference-array holds references;"
                            + " an array of values may have references inside its elements)");
                }
                if (!references.isEmpty()) {
                    if (componentSize % 8 != 0) {
                        throw new IllegalArgumentException(name + ": an array of structs with references has a component size that is a multiple of 8, not "
                                + componentSize);
                    }
                    checkOffsets(name, references, 0, componentSize - 8, "a reference's offset inside an element");
                }
            }
            default -> throw new IllegalStateException();
        }
        if (rank < 1 || rank > 32 || (shape != Shape.MD_ARRAY && rank != 1)) {
            throw new IllegalArgumentException(name + ": rank " + rank);
        }
        if (defaultConstructor && shape != Shape.CLASS) {
            throw new IllegalArgumentException(name + ": only a class has a default constructor flag");
        }
        // the name must compose back from metadata exactly (TypeName), and its array suffix must be the shape's
        TypeName parsed = TypeName.parse(name);
        String suffix = switch (shape) {
            case ARRAY, REFERENCE_ARRAY -> TypeName.SZ_ARRAY;
            case MD_ARRAY -> TypeName.mdArraySuffix(rank);
            default -> "";
        };
        if (!parsed.lastSuffix().equals(suffix)) {
            throw new IllegalArgumentException(name + ": a " + shape.id() + (suffix.isEmpty() ? " has no array suffix in its name"
                    : (shape == Shape.MD_ARRAY ? " of rank " + rank : "") + " is named with the suffix " + suffix + " after its element's name"));
        }
    }

    /** A type with fields: a class or boxed value, its BaseSize and references those its field layout gives. */
    private static void checkFields(String name, Shape shape, int baseSize, List<Integer> references, List<FieldSpec> fields, TypeDef parent) {
        if (shape != Shape.CLASS && shape != Shape.BOXED) {
            throw new IllegalArgumentException(name + ": only a class or a boxed value declares fields");
        }
        if (parent != null && (shape != Shape.CLASS || parent.shape() != Shape.CLASS)) {
            throw new IllegalArgumentException(name + ": only a class derives from a class of the scenario");
        }
        java.util.Set<String> names = new java.util.HashSet<>();
        for (FieldSpec f : fields) {
            if (!names.add(f.name())) {
                throw new IllegalArgumentException(name + ": two fields named " + f.name());
            }
        }
        FieldLayout layout = FieldLayout.of(shape == Shape.BOXED, parent, fields);
        List<Integer> expected = instanceReferences(parent, fields, layout);
        if (baseSize != layout.baseSize() || !references.equals(expected)) {
            throw new IllegalArgumentException(String.format("%s: its fields give BaseSize %d and references %s, not %d and %s",
                    name, layout.baseSize(), expected, baseSize, references));
        }
    }

    /**
     * A class or boxed value with {@code fields}, deriving from {@code parent} (a class of the scenario, or null): its
     * BaseSize and references from the fields' layout ({@link FieldLayout}), the base class's fields first.
     */
    public static TypeDef withFields(String name, Shape shape, TypeDef parent, List<FieldSpec> fields) {
        FieldLayout layout = FieldLayout.of(shape == Shape.BOXED, parent, fields);
        return new TypeDef(name, shape, layout.baseSize(), 0, 0, 1, shape == Shape.CLASS, instanceReferences(parent, fields, layout), false, fields, parent);
    }

    /** The name of an enum's one instance field (ECMA-335 II.14.3). */
    public static final String ENUM_VALUE_FIELD = "value__";

    /** An enum of underlying type {@code elementType} (I1 to U8): a value type whose one instance field is {@code value__}. */
    public static TypeDef enumType(String name, int elementType) {
        return withFields(name, Shape.BOXED, null, List.of(FieldSpec.of(ENUM_VALUE_FIELD, FieldType.primitive(elementType))));
    }

    /** Whether it is an enum ({@link #enumType}). */
    public boolean isEnum() {
        return shape == Shape.BOXED && fields.size() == 1 && fields.getFirst().name().equals(ENUM_VALUE_FIELD) && !fields.getFirst().isStatic();
    }

    /** Whether its EEClass describes fields: it declares some or derives from a class that does. */
    public boolean hasFieldDescs() {
        return !fields.isEmpty() || parent != null;
    }

    /**
     * The offsets from the object start of the references a type with fields holds: its base class's, its reference
     * fields', and those inside its structs, ascending.
     */
    private static List<Integer> instanceReferences(TypeDef parent, List<FieldSpec> fields, FieldLayout layout) {
        List<Integer> out = new java.util.ArrayList<>();
        if (parent != null) {
            out.addAll(parent.references());
        }
        int[] offsets = layout.offsets();
        for (int i = 0; i < fields.size(); i++) {
            FieldSpec f = fields.get(i);
            if (f.isStatic()) {
                continue;
            }
            if (f.type().reference()) {
                out.add(8 + offsets[i]);
            } else if (f.type().kind() == FieldType.Kind.STRUCT) {
                // the struct's references as boxed (after its MethodTable word), moved to where it is stored
                for (int r : f.type().valueType().references()) {
                    out.add(offsets[i] + r);
                }
            }
        }
        java.util.Collections.sort(out);
        return List.copyOf(out);
    }

    /** Offsets ascending, 8-aligned, in [first, last]. */
    private static void checkOffsets(String name, List<Integer> offsets, int first, int last, String what) {
        int previous = first - 8;
        for (int offset : offsets) {
            if (offset % 8 != 0 || offset <= previous || offset > last) {
                throw new IllegalArgumentException(String.format("%s: %s is a multiple of 8 in [%d, %d], ascending, not %d (references %s)",
                        name, what, first, last, offset, offsets));
            }
            previous = offset;
        }
    }

    /** A type without declared fields: its size and references given. */
    public TypeDef(String name, Shape shape, int baseSize, int componentSize, int pointerFields, int rank, boolean defaultConstructor,
                   List<Integer> references, boolean finalizer) {
        this(name, shape, baseSize, componentSize, pointerFields, rank, defaultConstructor, references, finalizer, List.of(), null);
    }

    /** A type with the first pointerFields words as references and no finalizer (the record's older form). */
    public TypeDef(String name, Shape shape, int baseSize, int componentSize, int pointerFields, int rank, boolean defaultConstructor) {
        this(name, shape, baseSize, componentSize, pointerFields, rank, defaultConstructor, List.of(), false);
    }

    /** The name's parts: namespace, nesting, array suffixes ({@link TypeName}). */
    public TypeName typeName() {
        return TypeName.parse(name);
    }

    /** A type with the default constructor flag a class usually has (and others never). */
    public TypeDef(String name, Shape shape, int baseSize, int componentSize, int pointerFields, int rank) {
        this(name, shape, baseSize, componentSize, pointerFields, rank, shape == Shape.CLASS);
    }

    public static TypeDef ofClass(String name, int baseSize, int pointerFields) {
        return new TypeDef(name, Shape.CLASS, baseSize, 0, pointerFields, 1);
    }

    public static TypeDef boxed(String name, int baseSize) {
        return new TypeDef(name, Shape.BOXED, baseSize, 0, 0, 1);
    }

    /** A class with references at {@code references} (offsets from the object start), with a finalizer or not. */
    public static TypeDef ofClass(String name, int baseSize, List<Integer> references, boolean finalizer) {
        return new TypeDef(name, Shape.CLASS, baseSize, 0, 0, 1, true, references, finalizer);
    }

    /** A boxed struct with references at {@code references} (offsets from the object start). */
    public static TypeDef boxed(String name, int baseSize, List<Integer> references) {
        return new TypeDef(name, Shape.BOXED, baseSize, 0, 0, 1, false, references, false);
    }

    /** An array of structs of {@code componentSize} bytes with references at {@code references} inside each element. */
    public static TypeDef structArray(String name, int componentSize, List<Integer> references) {
        return new TypeDef(name, Shape.ARRAY, 24, componentSize, 0, 1, false, references, false);
    }

    public static TypeDef arrayOf(String name, int componentSize) {
        return new TypeDef(name, Shape.ARRAY, 24, componentSize, 0, 1);
    }

    public static TypeDef referenceArray(String name) {
        return new TypeDef(name, Shape.REFERENCE_ARRAY, 24, 8, 0, 1);
    }

    public static TypeDef mdArray(String name, int componentSize, int rank) {
        return new TypeDef(name, Shape.MD_ARRAY, 24 + 8 * rank, componentSize, 0, rank);
    }

    public boolean hasComponents() {
        return componentSize != 0;
    }

    /** Whether its objects hold references, so that a GC pointer-series descriptor precedes its MethodTable. */
    public boolean containsPointers() {
        return !references.isEmpty() || shape == Shape.REFERENCE_ARRAY;
    }

    /** m_dwFlags as the runtime sets them (the component size in the low 16 bits when it has components). */
    public int flags() {
        int pointers = containsPointers() ? CONTAINS_GC_POINTERS : 0;
        return switch (shape) {
            case CLASS -> pointers | (defaultConstructor ? HAS_DEFAULT_CTOR : 0) | (finalizer ? HAS_FINALIZER : 0);
            case BOXED -> VALUE_TYPE | pointers | (baseSize - 16 <= 16 ? IS_REG_STRUCT_PASSED : 0);
            case STRING -> HAS_COMPONENT_SIZE | componentSize;
            case ARRAY, REFERENCE_ARRAY -> HAS_COMPONENT_SIZE | SZ_ARRAY | pointers | componentSize;
            case MD_ARRAY -> HAS_COMPONENT_SIZE | MD_ARRAY_CATEGORY | componentSize;
        };
    }

    /** The most components the runtime allows: strings 0x3FFFFFDF characters, arrays 0x7FFFFFC7 elements (the runtime's String.MaxLength, Array.MaxLength). */
    public long maxComponents() {
        return shape == Shape.STRING ? 0x3FFFFFDFL : hasComponents() ? 0x7FFFFFC7L : 0;
    }

    /** The object's size with {@code count} components, unaligned. */
    public long size(long count) {
        return baseSize + count * (long) componentSize;
    }

    // The built-in types: what every emulated process has, with the MethodTable facts seen in the real dumps
    // (flags, BaseSize, GC descriptor: golden/real, EmulatedBesideRealTest compares them).
    public static final TypeDef OBJECT = ofClass("System.Object", 24, 0);
    /** The parent of every array type (BaseSize 24; its flags differ by version: the profile's system_array.mt_flags). */
    public static final TypeDef ARRAY_BASE = ofClass("System.Array", 24, 0);
    /** The parent of every value type (flags 0x200, BaseSize 24 in the real dumps). */
    public static final TypeDef VALUE_TYPE_BASE = ofClass("System.ValueType", 24, 0);
    public static final TypeDef STRING = new TypeDef("System.String", Shape.STRING, 22, 2, 0, 1);
    public static final TypeDef BYTE_ARRAY = arrayOf("System.Byte[]", 1);
    public static final TypeDef INT_ARRAY = arrayOf("System.Int32[]", 4);
    public static final TypeDef LONG_ARRAY = arrayOf("System.Int64[]", 8);
    public static final TypeDef OBJECT_ARRAY = referenceArray("System.Object[]");
    /** A boxed 8-byte struct: flags 0x00040800, BaseSize 24 in the real dumps. */
    static final TypeDef BOXED_HANDLE = boxed("System.Runtime.InteropServices.GCHandle", 24);
    /** The real dumps' test program's types: Node (two references, no default constructor), Leaf (one reference), Pair (two). */
    public static final TypeDef NODE = new TypeDef("Node", Shape.CLASS, 48, 0, 2, 1, false);
    public static final TypeDef LEAF = ofClass("Leaf", 32, 1);
    static final TypeDef PAIR = ofClass("Pair", 40, 2);
    /** int[2,3]: a rank-2 array, BaseSize 24 + 8 x rank (the real dumps: 40). */
    public static final TypeDef INT_MD_ARRAY = mdArray("System.Int32[,]", 4, 2);
    /** An array of 12-byte structs. */
    public static final TypeDef STRUCT_ARRAY = arrayOf("Pt[]", 12);

    /** Every built-in type, by name in scenarios. */
    public static final List<TypeDef> BUILT_IN = List.of(OBJECT, STRING, BYTE_ARRAY, INT_ARRAY, LONG_ARRAY, OBJECT_ARRAY, BOXED_HANDLE,
            NODE, LEAF, PAIR, INT_MD_ARRAY, STRUCT_ARRAY);

    /** What the counted populations of a scenario (gen2/gen1/gen0 objects) pick from. */
    public static final List<TypeDef> SMALL_MIX = List.of(OBJECT, STRING, BYTE_ARRAY, INT_ARRAY, OBJECT_ARRAY, NODE, LEAF, PAIR, BOXED_HANDLE);
}
