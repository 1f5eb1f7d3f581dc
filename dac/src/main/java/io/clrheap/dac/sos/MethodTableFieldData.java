package io.clrheap.dac.sos;

/**
 * {@code GetMethodTableFieldData} (DacpMethodTableFieldData, dacprivate.h): the EEClass's field counts and its FieldDesc
 * list, as request.cpp fills it ({@code pMT->GetNumInstanceFields()} and the others, {@code FirstField =
 * pMT->GetClass()->GetFieldDescList()}; the context-static pair is always 0 in CoreCLR).
 *
 * @param numInstanceFields       instance fields, the inherited ones included
 * @param numStaticFields         this class's statics, thread statics among them
 * @param numThreadStaticFields   this class's thread statics
 * @param firstField              the class's first FieldDesc, 0 when it has none of its own
 * @param contextStaticOffset     always 0 (no context statics in CoreCLR)
 * @param contextStaticsSize      always 0
 */
public record MethodTableFieldData(int numInstanceFields, int numStaticFields, int numThreadStaticFields, long firstField,
                                   int contextStaticOffset, int contextStaticsSize) {
}
