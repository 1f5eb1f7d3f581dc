package io.clrheap.value;

import java.util.Locale;

/**
 * A field's or an array element's value as dumpobj and dumparray print it, from the bytes stored for it. The walker
 * formats what it reads from a dump with this, and the emulator formats what it wrote into the answer key's
 * {@code fields.tsv} with it too, so a difference between the two is a difference in the bytes, never in the spelling.
 */
public final class FieldValueText {

    private FieldValueText() {
    }

    /**
     * The value of a field of element type {@code type} whose stored bytes, read little-endian and zero-extended, are
     * {@code bits} (the low {@link ElementType#size} bytes count): decimal for numbers (Java's shortest round-trip
     * spelling for R4/R8), 16 hex digits for a reference, a pointer or anything else.
     * A struct (VALUETYPE) has no value of its own: see {@link #structAt}.
     */
    public static String of(int type, long bits) {
        return switch (type) {
            case ElementType.BOOLEAN, ElementType.U1 -> Long.toString(bits & 0xff);
            case ElementType.I1 -> Byte.toString((byte) bits);
            case ElementType.CHAR, ElementType.U2 -> Long.toString(bits & 0xffff);
            case ElementType.I2 -> Short.toString((short) bits);
            case ElementType.I4 -> Integer.toString((int) bits);
            case ElementType.U4 -> Long.toString(bits & 0xffff_ffffL);
            case ElementType.I8 -> Long.toString(bits);
            case ElementType.U8 -> Long.toUnsignedString(bits);
            case ElementType.R4 -> Float.toString(Float.intBitsToFloat((int) bits));
            case ElementType.R8 -> Double.toString(Double.longBitsToDouble(bits));
            default -> hex(bits);
        };
    }

    /** A struct field's value as dumpobj prints it: the address where the struct is stored inline. */
    public static String structAt(long address) {
        return hex(address);
    }

    /** A reference as dumparray prints an element: {@code null} for 0, else 16 hex digits. */
    public static String reference(long target) {
        return target == 0 ? "null" : hex(target);
    }

    private static String hex(long v) {
        return String.format(Locale.ROOT, "%016x", v);
    }
}
