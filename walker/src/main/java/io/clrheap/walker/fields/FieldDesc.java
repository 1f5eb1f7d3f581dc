package io.clrheap.walker.fields;

import io.clrheap.value.ElementType;

/**
 * One field as the runtime laid it out (fielddesc.h; docs/reference/fields.md section 3).
 *
 * @param address        the FieldDesc
 * @param enclosingClass the declaring class's canonical MethodTable
 * @param rid            the FieldDef row of its module's metadata (token {@code 0x04000000 | rid})
 * @param isStatic       a static field (its value is in the class's statics, not in objects)
 * @param isThreadStatic a thread-static field
 * @param protection     FieldAttributes' access (1 private, 3 assembly, 4 family, 6 public)
 * @param offset         an instance field's offset from the first byte after the object's MethodTable pointer
 * @param elementType    the CorElementType the runtime stores (normalised: CLASS for any reference, an enum's
 *                       underlying type, VALUETYPE for a struct)
 */
public record FieldDesc(long address, long enclosingClass, int rid, boolean isStatic, boolean isThreadStatic, int protection, long offset,
                        int elementType) {

    /** The field's metadata token. */
    public int token() {
        return 0x04000000 | rid;
    }

    /** Bytes its value takes inline: a reference 8, a primitive its size; a struct's size is its type's (0 here). */
    public int valueSize() {
        return ElementType.size(elementType);
    }

    /** The record's components, the addresses, token and offset in hex. */
    @Override
    public String toString() {
        return String.format("FieldDesc[address=0x%x, enclosingClass=0x%x, token=0x%08x, isStatic=%b, isThreadStatic=%b, protection=%d, offset=0x%x, elementType=0x%x]",
                address, enclosingClass, token(), isStatic, isThreadStatic, protection, offset, elementType);
    }
}
