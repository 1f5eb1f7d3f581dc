package io.clrheap.dac.sos;

/**
 * {@code GetFieldDescData} (DacpFieldDescData, dacprivate.h), as request.cpp fills it from a FieldDesc.
 *
 * @param type            {@code FieldDesc::GetFieldType()}: the CorElementType the runtime stores (normalised)
 * @param sigType         the signature's element type when the field's type has no MethodTable and no token, else {@code type}
 * @param methodTableOfType the field type's MethodTable when loaded, else 0
 * @param moduleOfType    the FieldDesc's module (request.cpp: "not currently useful")
 * @param tokenOfType     the signature's TypeDefOrRef token for CLASS / VALUETYPE, else mdTypeDefNil
 * @param token           {@code GetMemberDef()}: the FieldDef token ({@code mb})
 * @param enclosingClass  {@code GetApproxEnclosingMethodTable()}: the declaring class's canonical MethodTable
 * @param offset          {@code GetOffset()}: from the first byte after the MethodTable pointer, or into the statics
 * @param isThreadLocal   a thread-static field
 * @param isContextLocal  always false in CoreCLR
 * @param isStatic        a static field
 * @param nextField       the next FieldDesc: this one plus sizeof(FieldDesc), whether or not there is one
 */
public record FieldDescData(int type, int sigType, long methodTableOfType, long moduleOfType, int tokenOfType, int token,
                            long enclosingClass, long offset, boolean isThreadLocal, boolean isContextLocal, boolean isStatic,
                            long nextField) {
}
