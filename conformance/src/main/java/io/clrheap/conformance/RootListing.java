package io.clrheap.conformance;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a walker printed for {@code --expect roots}: rows of roots.tsv's form, {@code kind root object flags thread}
 * separated by tabs or spaces (what {@code clrheap walk --roots} prints), in any order. A line whose first column is one
 * of roots.tsv's kinds is a row, and must have the five columns ({@link RootRow#parse}); other lines (the header,
 * banners, {@code #} comments, blank lines) are ignored. A row printed twice counts once: the roots are a set.
 *
 * @param rows     the rows, canonical, in the walker's order; at most {@link WalkerOutput#MAX_ROWS}
 * @param problems the lines that did not parse
 * @param notes    where the output was not UTF-8
 */
public record RootListing(Set<RootRow> rows, ParseProblems problems, List<String> notes) {

    /** Reads a walker's output. */
    public static RootListing read(Path output) throws IOException {
        Set<RootRow> rows = new LinkedHashSet<>();
        WalkerOutput.Problems problems = new WalkerOutput.Problems();
        try (OutputLines in = OutputLines.open(output)) {
            OutputLines.Line l;
            while ((l = in.nextFitting(problems)) != null) {
                String[] columns = l.text().strip().split("\\s+");
                if (!RootRow.KINDS.contains(columns[0])) {
                    continue;
                }
                if (columns.length != 5) {
                    problems.add(l, "starts like a root row 'kind root object flags thread' but has " + columns.length + " columns, not 5");
                    continue;
                }
                if (rows.size() == WalkerOutput.MAX_ROWS) {
                    problems.add(l, String.format(Locale.ROOT, "more than %,d roots listed; the rest was not read", WalkerOutput.MAX_ROWS));
                    break;
                }
                try {
                    rows.add(RootRow.parse(columns));
                } catch (NumberFormatException e) {
                    problems.add(l, e.getMessage());
                }
            }
            return new RootListing(rows, problems.list(), in.notes());
        }
    }
}
