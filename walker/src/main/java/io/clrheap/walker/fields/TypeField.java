package io.clrheap.walker.fields;

/**
 * A field of a type, without a value: what ClrMD's {@code ClrField} says of it.
 *
 * @param name         its name from the metadata, or {@code <field 0x04…>} when the dump lacks the module's image
 * @param type         its declared type (a generic parameter replaced by the instantiation's argument)
 * @param token        its FieldDef token
 * @param offset       an instance field's offset from the first byte after the MethodTable pointer, as ClrMD's
 *                     {@code ClrField.Offset} (dumpobj prints it plus 8; in a struct stored inline it is the offset from
 *                     the struct's start); a static's offset in its statics storage
 * @param elementType  the CorElementType the runtime stores (io.clrheap.value.ElementType)
 * @param isStatic     a static field
 * @param isThreadStatic a [ThreadStatic] field
 */
public record TypeField(String name, String type, int token, long offset, int elementType, boolean isStatic, boolean isThreadStatic) {
}
