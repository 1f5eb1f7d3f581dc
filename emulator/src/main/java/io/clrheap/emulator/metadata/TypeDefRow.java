package io.clrheap.emulator.metadata;

/**
 * A row of the TypeDef table (ECMA-335 II.22.37) as the emulator writes it: flags, name and namespace, and the RID of
 * the enclosing TypeDef for a nested type (a NestedClass row, II.22.32). Extends is nil and the field and method lists
 * are empty: a type name needs neither.
 *
 * @param flags        TypeAttributes (II.23.1.15): visibility in the low 3 bits, {@code Sealed}, layout
 * @param name         the type's own name
 * @param namespace    its namespace ("" for a nested type, whose namespace is its outermost type's)
 * @param enclosingRid the enclosing TypeDef's RID, or 0 when not nested
 */
public record TypeDefRow(int flags, String name, String namespace, int enclosingRid) {

    /** TypeAttributes.Public (II.23.1.15). */
    public static final int PUBLIC = 0x1;
    /** TypeAttributes.NestedPublic: visibility 2..7 marks a nested type (II.23.1.15). */
    public static final int NESTED_PUBLIC = 0x2;
    /** TypeAttributes.SequentialLayout (value types as C# compiles them). */
    public static final int SEQUENTIAL_LAYOUT = 0x8;
    /** TypeAttributes.Sealed. */
    public static final int SEALED = 0x100;

    public boolean nested() {
        return enclosingRid != 0;
    }
}
