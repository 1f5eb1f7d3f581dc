package io.clrheap.emulator.metadata;

/**
 * A row of the Field table (ECMA-335 II.22.15) as the emulator writes it: flags, name, and the FIELD signature
 * (II.23.2.4) that goes into the {@code #Blob} heap.
 *
 * @param flags     FieldAttributes (II.23.1.5): access in the low 3 bits, {@link #STATIC}, the special-name bits
 * @param name      the field's name
 * @param signature {@code 0x06} then the type
 */
public record FieldRow(int flags, String name, byte[] signature) {

    /** FieldAttributes.Public. */
    public static final int PUBLIC = 0x6;
    /** FieldAttributes.Static. */
    public static final int STATIC = 0x10;
    /** SpecialName | RTSpecialName: an enum's {@code value__} (II.14.3). */
    public static final int SPECIAL_NAME = 0x600;

    public FieldRow {
        signature = signature.clone();
    }

    @Override
    public byte[] signature() {
        return signature.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FieldRow r && r.flags == flags && r.name.equals(name) && java.util.Arrays.equals(r.signature, signature);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + java.util.Arrays.hashCode(signature);
    }
}
