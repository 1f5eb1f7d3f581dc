package io.clrheap.conformance;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a walker printed for {@code --expect fields}: rows of fields.tsv's form, {@code object field declared_type offset
 * value} separated by tabs (what {@code clrheap walk --fields} prints), in any order. A line starting with {@code 0x}
 * is a row and must have the five columns; other lines (the header, banners, comments) are ignored. A field printed
 * twice counts once, its last row standing.
 *
 * @param rows     the rows by object and field name; at most {@link WalkerOutput#MAX_ROWS}
 * @param problems the lines that did not parse
 * @param notes    where the output was not UTF-8
 */
public record FieldListing(Map<String, FieldRow> rows, ParseProblems problems, List<String> notes) {

    public static FieldListing read(Path output) throws IOException {
        Map<String, FieldRow> rows = new LinkedHashMap<>();
        WalkerOutput.Problems problems = new WalkerOutput.Problems();
        try (OutputLines in = OutputLines.open(output)) {
            OutputLines.Line l;
            while ((l = in.nextFitting(problems)) != null) {
                String text = l.text().strip();
                if (!text.startsWith("0x")) {
                    continue;
                }
                String[] columns = text.split("\t");
                if (columns.length != 5) {
                    problems.add(l, "starts like a field row 'object field declared_type offset value' but has " + columns.length
                            + " tab-separated columns, not 5");
                    continue;
                }
                if (rows.size() == WalkerOutput.MAX_ROWS) {
                    problems.add(l, String.format(Locale.ROOT, "more than %,d fields listed; the rest was not read", WalkerOutput.MAX_ROWS));
                    break;
                }
                try {
                    FieldRow r = FieldRow.parse(columns);
                    rows.put(r.key(), r);
                } catch (NumberFormatException e) {
                    problems.add(l, e.getMessage());
                }
            }
            return new FieldListing(rows, problems.list(), in.notes());
        }
    }
}
