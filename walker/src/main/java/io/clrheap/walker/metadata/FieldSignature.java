package io.clrheap.walker.metadata;

import java.util.ArrayList;
import java.util.List;

/**
 * A FIELD signature (ECMA-335 II.23.2.4: {@code 0x06}, custom modifiers, the type) decoded into the declared type's
 * name as SOS's dumpobj prints it: {@code System.Int32}, {@code System.String}, {@code System.Int32[]},
 * {@code System.Collections.Generic.Dictionary`2+Entry[[…]]} spelled as the metadata names it (II.23.2.12). A type's
 * generic parameter is its argument in the instantiation when that is given ({@code System.String} for {@code !0} of
 * {@code List<String>}), else {@code !0}; a method's is {@code !!0}.
 */
public final class FieldSignature {

    /** Nested generic arguments deeper than this are no real signature. */
    private static final int MAX_DEPTH = 16;

    private final EcmaMetadata metadata;
    private final byte[] bytes;
    private final List<String> typeArguments;
    private int at;

    private FieldSignature(EcmaMetadata metadata, byte[] bytes, List<String> typeArguments) {
        this.metadata = metadata;
        this.bytes = bytes;
        this.typeArguments = typeArguments;
    }

    /** The declared type of a field with signature {@code signature} in {@code metadata}, generic parameters as {@code !0}. */
    public static String typeName(EcmaMetadata metadata, byte[] signature) {
        return typeName(metadata, signature, List.of());
    }

    /**
     * The declared type of a field with signature {@code signature} in {@code metadata}, each type parameter {@code !i}
     * replaced by {@code typeArguments.get(i)} (the declaring class's instantiation) where there is one.
     */
    public static String typeName(EcmaMetadata metadata, byte[] signature, List<String> typeArguments) {
        FieldSignature s = new FieldSignature(metadata, signature, typeArguments);
        if (signature.length == 0 || (signature[0] & 0x0f) != 0x06) {
            throw new MetadataFormatException(0, "not a FIELD signature (first byte " + (signature.length == 0 ? "none" : String.format("0x%02x", signature[0])) + ")");
        }
        s.at = 1;
        return s.type(0);
    }

    private String type(int depth) {
        if (depth > MAX_DEPTH) {
            throw new MetadataFormatException(0, "field signature nested deeper than " + MAX_DEPTH);
        }
        int e = u8();
        return switch (e) {
            case 0x01 -> "System.Void";
            case 0x02 -> "System.Boolean";
            case 0x03 -> "System.Char";
            case 0x04 -> "System.SByte";
            case 0x05 -> "System.Byte";
            case 0x06 -> "System.Int16";
            case 0x07 -> "System.UInt16";
            case 0x08 -> "System.Int32";
            case 0x09 -> "System.UInt32";
            case 0x0a -> "System.Int64";
            case 0x0b -> "System.UInt64";
            case 0x0c -> "System.Single";
            case 0x0d -> "System.Double";
            case 0x0e -> "System.String";
            case 0x0f -> type(depth + 1) + "*";                    // PTR
            case 0x10 -> type(depth + 1) + "&";                    // BYREF
            case 0x11, 0x12 -> typeDefOrRef(compressed());         // VALUETYPE, CLASS
            case 0x13 -> typeParameter(compressed());              // VAR
            case 0x14 -> array(depth);                             // ARRAY
            case 0x15 -> genericInstance(depth);                   // GENERICINST
            case 0x16 -> "System.TypedReference";
            case 0x18 -> "System.IntPtr";
            case 0x19 -> "System.UIntPtr";
            case 0x1b -> { skipMethodSignature(); yield "System.IntPtr"; } // FNPTR: a function pointer's value is an address
            case 0x1c -> "System.Object";
            case 0x1d -> type(depth + 1) + "[]";                   // SZARRAY
            case 0x1e -> "!!" + compressed();                      // MVAR
            case 0x1f, 0x20 -> { compressed(); yield type(depth + 1); } // CMOD_REQD / CMOD_OPT (e.g. volatile): skipped
            case 0x45 -> type(depth + 1);                          // PINNED
            default -> throw new MetadataFormatException(0, String.format("field signature element 0x%02x at byte %d", e, at - 1));
        };
    }

    private String typeParameter(long index) {
        return index < typeArguments.size() ? typeArguments.get((int) index) : "!" + index;
    }

    private String array(int depth) {
        String element = type(depth + 1);
        long rank = compressed();
        long sizes = compressed();
        for (long i = 0; i < sizes; i++) {
            compressed();
        }
        long bounds = compressed();
        for (long i = 0; i < bounds; i++) {
            compressed();
        }
        return element + "[" + ",".repeat((int) Math.max(0, Math.min(rank - 1, 32))) + "]";
    }

    private String genericInstance(int depth) {
        u8(); // CLASS or VALUETYPE
        String definition = typeDefOrRef(compressed());
        long count = compressed();
        if (count > 64) {
            throw new MetadataFormatException(0, "a generic instantiation of " + count + " arguments");
        }
        List<String> arguments = new ArrayList<>();
        for (long i = 0; i < count; i++) {
            arguments.add("[" + type(depth + 1) + "]");
        }
        return definition + "[" + String.join(",", arguments) + "]";
    }

    private void skipMethodSignature() {
        u8(); // calling convention
        long parameters = compressed();
        for (long i = 0; i <= parameters && i < 256; i++) {
            type(MAX_DEPTH - 1);
        }
    }

    /** A TypeDefOrRef coded index (II.23.2.8): tag in the low 2 bits (TypeDef, TypeRef, TypeSpec), then the row. */
    private String typeDefOrRef(long coded) {
        int rid = (int) (coded >>> 2);
        return switch ((int) (coded & 3)) {
            case 0 -> nestedName(metadata.typeDef(rid), 0);
            case 1 -> metadata.typeRef(rid).qualified();
            default -> "(TypeSpec 0x" + Integer.toHexString(0x1b000000 | rid) + ")";
        };
    }

    private String nestedName(TypeDefName t, int depth) {
        if (!t.nested() || depth > MAX_DEPTH) {
            return t.qualified();
        }
        return nestedName(metadata.typeDef(t.enclosingRid()), depth + 1) + "+" + t.name();
    }

    private int u8() {
        if (at >= bytes.length) {
            throw new MetadataFormatException(0, "field signature ends early (" + bytes.length + " bytes)");
        }
        return bytes[at++] & 0xff;
    }

    /** A compressed unsigned integer (II.23.2). */
    private long compressed() {
        int first = u8();
        if ((first & 0x80) == 0) {
            return first;
        }
        if ((first & 0xc0) == 0x80) {
            return ((first & 0x3fL) << 8) | u8();
        }
        return ((first & 0x1fL) << 24) | ((long) u8() << 16) | ((long) u8() << 8) | u8();
    }
}
