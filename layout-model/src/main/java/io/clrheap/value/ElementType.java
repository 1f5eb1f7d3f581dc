package io.clrheap.value;

/** The CorElementType values a FieldDesc stores (corhdr.h; ECMA-335 II.23.1.16), with their names and sizes. */
public final class ElementType {

    public static final int BOOLEAN = 0x02;
    public static final int CHAR = 0x03;
    public static final int I1 = 0x04;
    public static final int U1 = 0x05;
    public static final int I2 = 0x06;
    public static final int U2 = 0x07;
    public static final int I4 = 0x08;
    public static final int U4 = 0x09;
    public static final int I8 = 0x0a;
    public static final int U8 = 0x0b;
    public static final int R4 = 0x0c;
    public static final int R8 = 0x0d;
    public static final int STRING = 0x0e;
    public static final int PTR = 0x0f;
    public static final int VALUETYPE = 0x11;
    public static final int CLASS = 0x12;
    public static final int I = 0x18;
    public static final int U = 0x19;
    public static final int FNPTR = 0x1b;
    public static final int OBJECT = 0x1c;
    public static final int SZARRAY = 0x1d;

    private ElementType() {
    }

    /** Whether a field of this type holds an object reference. */
    public static boolean isReference(int type) {
        return type == CLASS || type == STRING || type == OBJECT || type == SZARRAY || type == 0x14 || type == 0x15;
    }

    /** The value's size in bytes; 0 for a value type (its MethodTable says) and for an unknown type. */
    public static int size(int type) {
        return switch (type) {
            case BOOLEAN, I1, U1 -> 1;
            case CHAR, I2, U2 -> 2;
            case I4, U4, R4 -> 4;
            case I8, U8, R8, I, U, PTR, FNPTR -> 8;
            default -> isReference(type) ? 8 : 0;
        };
    }

    /** The type as the runtime names it in a FieldDesc: {@code I4}, {@code CLASS}, {@code VALUETYPE}. */
    public static String name(int type) {
        return switch (type) {
            case BOOLEAN -> "BOOLEAN";
            case CHAR -> "CHAR";
            case I1 -> "I1";
            case U1 -> "U1";
            case I2 -> "I2";
            case U2 -> "U2";
            case I4 -> "I4";
            case U4 -> "U4";
            case I8 -> "I8";
            case U8 -> "U8";
            case R4 -> "R4";
            case R8 -> "R8";
            case STRING -> "STRING";
            case PTR -> "PTR";
            case VALUETYPE -> "VALUETYPE";
            case CLASS -> "CLASS";
            case I -> "I";
            case U -> "U";
            case FNPTR -> "FNPTR";
            case OBJECT -> "OBJECT";
            case SZARRAY -> "SZARRAY";
            default -> String.format("0x%02x", type);
        };
    }
}
