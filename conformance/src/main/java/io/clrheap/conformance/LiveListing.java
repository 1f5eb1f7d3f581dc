package io.clrheap.conformance;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a walker printed for {@code --expect live}: the live objects, one {@code 0xADDRESS} per line in any order. Only
 * a line's first column counts, so an object listing ({@code clrheap walk --objects --live}: the columns of
 * {@code objects.tsv}) is read as well. Lines starting with {@code #}, blank lines and lines that do not start with {@code 0x} (a
 * header, banners) are ignored; a line whose first column starts with {@code 0x} but is not a hex address is a
 * problem naming the line. An address printed twice counts once: the live set is a set.
 *
 * @param addresses the live objects, sorted (unsigned) and distinct; at most {@link WalkerOutput#MAX_ROWS}
 * @param problems  the lines that did not parse
 * @param notes     where the output was not UTF-8
 */
public record LiveListing(long[] addresses, ParseProblems problems, List<String> notes) {

    private static final Pattern FIRST = Pattern.compile("^\\s*0x(\\S*)(?:\\s.*)?$");

    /** Reads a walker's output. */
    public static LiveListing read(Path output) throws IOException {
        long[] all = new long[1024];
        int n = 0;
        WalkerOutput.Problems problems = new WalkerOutput.Problems();
        try (OutputLines in = OutputLines.open(output)) {
            OutputLines.Line l;
            while ((l = in.nextFitting(problems)) != null) {
                Matcher m = FIRST.matcher(l.text());
                if (!m.matches()) {
                    continue;
                }
                if (n == WalkerOutput.MAX_ROWS) {
                    problems.add(l, String.format(Locale.ROOT, "more than %,d live objects listed; the rest was not read", WalkerOutput.MAX_ROWS));
                    break;
                }
                try {
                    long address = WalkerOutput.hex(m.group(1), "address");
                    if (n == all.length) {
                        all = Arrays.copyOf(all, (int) Math.min(WalkerOutput.MAX_ROWS, 2L * n));
                    }
                    all[n++] = address;
                } catch (NumberFormatException e) {
                    problems.add(l, e.getMessage());
                }
            }
            return new LiveListing(distinct(all, n), problems.list(), in.notes());
        }
    }

    /** Sorted unsigned (by flipping the sign bit, so a primitive sort does it), duplicates dropped. */
    private static long[] distinct(long[] all, int n) {
        long[] flipped = new long[n];
        for (int i = 0; i < n; i++) {
            flipped[i] = all[i] ^ Long.MIN_VALUE;
        }
        Arrays.sort(flipped);
        int kept = 0;
        for (int i = 0; i < n; i++) {
            if (kept == 0 || flipped[kept - 1] != flipped[i]) {
                flipped[kept++] = flipped[i];
            }
        }
        long[] sorted = Arrays.copyOf(flipped, kept);
        for (int i = 0; i < kept; i++) {
            sorted[i] ^= Long.MIN_VALUE;
        }
        return sorted;
    }
}
