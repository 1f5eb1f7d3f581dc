package io.clrheap.emulator.truth;

/**
 * One instance field of the objects of a type, as the emulator laid it out: what the answer key's {@code fields.tsv}
 * states of every such object (docs/answer-key.md). A struct stored inline is a row of its own (its value the
 * struct's address) followed by its fields' rows, named {@code outer.inner}.
 *
 * @param name         the field's name; {@code outer.inner} inside a struct field
 * @param declaredType the declared type as the field's signature names it ({@code System.Int32}, {@code Shop.Point[]})
 * @param offset       from the object's start (its MethodTable word at 0), as dumpobj's Offset column plus 8
 * @param storedType   the FieldDesc's CorElementType: how many bytes the value takes and how it is spelled
 */
public record FieldTruth(String name, String declaredType, int offset, int storedType) {
}
