package io.clrheap.dac.fields;

/**
 * One thing the DAC and the walker say differently about a MethodTable's fields.
 *
 * @param methodTable the MethodTable whose fields were compared
 * @param token       the field's FieldDef token, 0 for a difference of the class as a whole (counts, parent)
 * @param what        what differs ({@code offset}, {@code element type}, {@code static}, ...)
 * @param dac         the DAC's answer
 * @param walker      the walker's answer
 */
public record FieldDifference(long methodTable, int token, String what, String dac, String walker) {

    @Override
    public String toString() {
        return String.format("MethodTable 0x%x%s: %s: DAC %s, walker %s", methodTable, token == 0 ? "" : String.format(" field 0x%08x", token),
                what, dac, walker);
    }
}
