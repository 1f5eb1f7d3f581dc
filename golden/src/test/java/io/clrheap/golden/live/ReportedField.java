package io.clrheap.golden.live;

/**
 * One instance field of an object the test program reported ({@code FIELD} or {@code FIELD-ASSIGNED} line; see
 * HeapProbe.cs's header).
 *
 * @param label     the object's label, as in its {@code OBJ} line
 * @param path      the field's name; a struct's fields by path ({@code Corner.X}, {@code Edge.From.Y}), an array
 *                  element's by index ({@code [2].X})
 * @param value     as the program spelled it: a decimal integer, {@code null}, another object's label, {@code "text"}
 *                  for a string, {@code r8:}/{@code r4:} and the IEEE bits in hex for a double or float
 * @param reflected read by the runtime's reflection ({@code FieldInfo.GetValue}); false where the program printed what it
 *                  assigned because its CoreLib lacks that reflection
 */
public record ReportedField(String label, String path, String value, boolean reflected) {
}
