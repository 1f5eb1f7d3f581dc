package io.clrheap.emulator.scenario;

import io.clrheap.value.ElementType;
import java.util.Map;

/**
 * The declared type of a field of a scenario type: a primitive, {@code string}, {@code object}, a class of the
 * scenario (a reference), an SZ array of any of these, a struct stored inline, or an enum (stored as its underlying
 * integer). It gives what the runtime records of the field: the FieldDesc's normalised CorElementType
 * (docs/reference/fields.md section 3: references are CLASS, an enum its underlying primitive, a struct VALUETYPE), the
 * bytes it takes, and the name a FIELD signature spells (ECMA-335 II.23.2.4; the walker's FieldSignature).
 *
 * @param kind      what it is
 * @param name      the declared type's name as a signature decodes: {@code System.Int32}, {@code Shop.Point[]}
 * @param primitive the CorElementType of a primitive or of an enum's underlying type; 0 otherwise
 * @param element   an array's element type; null otherwise
 * @param valueType the struct or enum type (a boxed-value TypeDef with fields); null otherwise
 */
public record FieldType(Kind kind, String name, int primitive, FieldType element, TypeDef valueType) {

    /** What the declared type is, which decides its signature and its storage. */
    public enum Kind {
        PRIMITIVE, STRING, OBJECT, CLASS, ARRAY, STRUCT, ENUM
    }

    /** The primitives' names as a signature spells them (ECMA-335 II.23.1.16). */
    private static final Map<Integer, String> PRIMITIVE_NAMES = Map.ofEntries(
            Map.entry(ElementType.BOOLEAN, "System.Boolean"), Map.entry(ElementType.CHAR, "System.Char"),
            Map.entry(ElementType.I1, "System.SByte"), Map.entry(ElementType.U1, "System.Byte"),
            Map.entry(ElementType.I2, "System.Int16"), Map.entry(ElementType.U2, "System.UInt16"),
            Map.entry(ElementType.I4, "System.Int32"), Map.entry(ElementType.U4, "System.UInt32"),
            Map.entry(ElementType.I8, "System.Int64"), Map.entry(ElementType.U8, "System.UInt64"),
            Map.entry(ElementType.R4, "System.Single"), Map.entry(ElementType.R8, "System.Double"));

    public static final FieldType STRING = new FieldType(Kind.STRING, "System.String", 0, null, null);
    public static final FieldType OBJECT = new FieldType(Kind.OBJECT, "System.Object", 0, null, null);

    public FieldType {
        boolean ok = switch (kind) {
            case PRIMITIVE -> PRIMITIVE_NAMES.containsKey(primitive) && element == null && valueType == null;
            case STRING, OBJECT, CLASS -> primitive == 0 && element == null && valueType == null;
            case ARRAY -> element != null && valueType == null;
            case STRUCT -> valueType != null && valueType.shape() == TypeDef.Shape.BOXED && !valueType.fields().isEmpty();
            case ENUM -> valueType != null && valueType.isEnum() && PRIMITIVE_NAMES.containsKey(primitive);
        };
        if (!ok || name == null || name.isBlank()) {
            throw new IllegalArgumentException("not a field type: " + kind + " " + name);
        }
    }

    /** A primitive of CorElementType {@code elementType} (BOOLEAN to R8). */
    public static FieldType primitive(int elementType) {
        String name = PRIMITIVE_NAMES.get(elementType);
        if (name == null) {
            throw new IllegalArgumentException(String.format("0x%02x is no primitive a field of a scenario type holds", elementType));
        }
        return new FieldType(Kind.PRIMITIVE, name, elementType, null, null);
    }

    /** A reference to an object of the scenario's class {@code name} (a TypeDef of the same assembly). */
    public static FieldType classNamed(String name) {
        return new FieldType(Kind.CLASS, name, 0, null, null);
    }

    /** An SZ array of {@code element}. */
    public static FieldType arrayOf(FieldType element) {
        return new FieldType(Kind.ARRAY, element.name() + "[]", 0, element, null);
    }

    /** A struct stored inline: {@code struct} is a boxed-value type with fields. */
    public static FieldType struct(TypeDef struct) {
        return new FieldType(Kind.STRUCT, struct.name(), 0, null, struct);
    }

    /** An enum, stored as its underlying integer ({@link TypeDef#enumType}). */
    public static FieldType enumOf(TypeDef enumType) {
        return new FieldType(Kind.ENUM, enumType.name(), enumType.fields().getFirst().type().primitive(), null, enumType);
    }

    /** The FieldDesc's m_type: CLASS for every reference, VALUETYPE for a struct, an enum's underlying primitive. */
    public int storedType() {
        return switch (kind) {
            case PRIMITIVE, ENUM -> primitive;
            case STRUCT -> ElementType.VALUETYPE;
            default -> ElementType.CLASS;
        };
    }

    /** Whether it is stored as an object reference. */
    public boolean reference() {
        return storedType() == ElementType.CLASS;
    }

    /** The bytes the field takes: a primitive's size, 8 for a reference, a struct's instance size. */
    public int size() {
        return kind == Kind.STRUCT ? FieldLayout.of(valueType).instanceSize() : ElementType.size(storedType());
    }

    /** The alignment of the field: its size up to 8 for a primitive or reference, a struct's field alignment. */
    public int alignment() {
        return kind == Kind.STRUCT ? FieldLayout.of(valueType).alignment() : Math.min(8, size());
    }
}
