package io.clrheap.conformance;

import java.util.Locale;

/**
 * One row of fields.tsv ({@code object field declared_type offset value}, docs/answer-key.md), canonical: the object a
 * lowercase {@code 0x} address, the offset decimal. Two rows are about the same field when object and field agree.
 */
record FieldRow(long object, String field, String type, long offset, String value) {

    /** The row of the five columns; a column that is not what the format says is a {@link NumberFormatException} naming it. */
    static FieldRow parse(String[] columns) {
        if (!columns[0].startsWith("0x")) {
            throw new NumberFormatException("the object '" + WalkerOutput.quote(columns[0], 40) + "' is not a 0x hex address");
        }
        return new FieldRow(WalkerOutput.hex(columns[0].substring(2), "object"), columns[1], columns[2],
                WalkerOutput.number(columns[3], "offset"), columns[4]);
    }

    /** What names the field: its object and name. */
    String key() {
        return Long.toHexString(object) + "\t" + field;
    }

    String describe() {
        return String.format(Locale.ROOT, "%s %s at offset %d = %s", field, type, offset, value);
    }
}
