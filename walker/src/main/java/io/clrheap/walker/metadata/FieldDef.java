package io.clrheap.walker.metadata;

/**
 * A row of the Field table (ECMA-335 II.22.15): what a FieldDesc's RID names.
 *
 * @param rid       the row
 * @param flags     FieldAttributes (FieldAccessMask 7, Static 0x10, …)
 * @param name      the field's name
 * @param signature its FIELD signature blob (II.23.2.4)
 */
public record FieldDef(int rid, int flags, String name, byte[] signature) {
}
