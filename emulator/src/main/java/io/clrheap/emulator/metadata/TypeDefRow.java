package io.clrheap.emulator.metadata;

/**
 * A row of the TypeDef table (ECMA-335 II.22.37) as the emulator writes it: flags, name and namespace, and the RID of
 * the enclosing TypeDef for a nested type (a NestedClass row, II.22.32), the base class when it is a TypeDef of the same
 * assembly (else Extends is nil: no TypeRefs are written), and the fields it declares (its FieldList run). The method list is empty.
 *
 * @param flags        TypeAttributes (II.23.1.15): visibility in the low 3 bits, {@code Sealed}, layout
 * @param name         the type's own name
 * @param namespace    its namespace ("" for a nested type, whose namespace is its outermost type's)
 * @param enclosingRid the enclosing TypeDef's RID, or 0 when not nested
 * @param extendsRid   the base class's TypeDef RID in the same assembly, or 0
 * @param fields       its Field rows, in declaration order
 */
public record TypeDefRow(int flags, String name, String namespace, int enclosingRid, int extendsRid, java.util.List<FieldRow> fields) {

    public TypeDefRow {
        fields = java.util.List.copyOf(fields);
    }

    /** A type deriving from no type of its assembly and declaring no fields. */
    public TypeDefRow(int flags, String name, String namespace, int enclosingRid) {
        this(flags, name, namespace, enclosingRid, 0, java.util.List.of());
    }

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
