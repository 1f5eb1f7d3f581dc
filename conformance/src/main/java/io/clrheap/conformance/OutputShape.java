package io.clrheap.conformance;

import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which report a walker's output looks like, from its first lines: when a walker prints one report and conform was
 * told to expect another (an object listing under the default {@code --expect stat}), the runner says "did you mean"
 * once instead of failing on every line. Each line is matched against the rows of every report conform reads; the
 * report with the most rows wins, eeheap and gchandles text being told by their headings.
 */
final class OutputShape {

    /** How many lines are looked at: enough to see the rows behind a banner. */
    static final int LINES = 2_000;

    private static final Pattern STAT_ROW = Pattern.compile("^\\s*(?:0x)?[0-9a-fA-F]{6,16}\\s+[0-9,]+\\s+[0-9,]+\\s+\\S.*$");
    private static final Pattern STAT_HEADING = Pattern.compile("^\\s*(Statistics:|MT\\s+Count\\s+TotalSize\\s+Class Name|Total\\s+[0-9,]+\\s+objects?,.*)\\s*$");
    private static final Pattern OBJECT_ROW = Pattern.compile("^\\s*0x[0-9a-fA-F]+\\s+0x[0-9a-fA-F]+\\s+[0-9]+(\\s.*)?$");
    private static final Pattern REFERENCE_ROW = Pattern.compile("^\\s*0x[0-9a-fA-F]+:(\\s+0x[0-9a-fA-F]+)*\\s*$");
    private static final Pattern LIVE_ROW = Pattern.compile("^\\s*0x[0-9a-fA-F]+\\s*$");
    private static final Pattern FIELD_ROW = Pattern.compile("^0x[0-9a-fA-F]+\\t[^\\t]+\\t[^\\t]+\\t[0-9]+\\t.*$");
    private static final Pattern EEHEAP_HEADING = Pattern.compile("^\\s*(Number of GC Heaps:|GC Allocated Heap Size:|Small object heap\\s*$)");
    private static final Pattern HANDLES_HEADING = Pattern.compile("^\\s*(Handles:\\s*$|Handle\\s+Type\\s+Object\\b)");

    private OutputShape() {
    }

    /** The report {@code output} looks like, if any of its first {@link #LINES} lines is a row of one. */
    static Optional<ConformanceRunner.Expect> of(Path output) throws IOException {
        Map<ConformanceRunner.Expect, Integer> rows = new EnumMap<>(ConformanceRunner.Expect.class);
        WalkerOutput.Problems ignored = new WalkerOutput.Problems();
        try (OutputLines in = OutputLines.open(output)) {
            OutputLines.Line l;
            for (int n = 0; n < LINES && (l = in.nextFitting(ignored)) != null; n++) {
                String line = l.text();
                if (EEHEAP_HEADING.matcher(line).find()) {
                    return Optional.of(ConformanceRunner.Expect.EEHEAP);
                }
                if (HANDLES_HEADING.matcher(line).find()) {
                    return Optional.of(ConformanceRunner.Expect.HANDLES);
                }
                shape(line).ifPresent(e -> rows.merge(e, 1, Integer::sum));
            }
        }
        return rows.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey);
    }

    private static Optional<ConformanceRunner.Expect> shape(String line) {
        if (FIELD_ROW.matcher(line).matches()) {
            return Optional.of(ConformanceRunner.Expect.FIELDS);
        }
        if (OBJECT_ROW.matcher(line).matches()) {
            return Optional.of(ConformanceRunner.Expect.OBJECTS);
        }
        if (REFERENCE_ROW.matcher(line).matches()) {
            return Optional.of(ConformanceRunner.Expect.REFS);
        }
        if (LIVE_ROW.matcher(line).matches()) {
            return Optional.of(ConformanceRunner.Expect.LIVE);
        }
        if (STAT_ROW.matcher(line).matches() || STAT_HEADING.matcher(line).matches()) {
            return Optional.of(ConformanceRunner.Expect.STAT);
        }
        String[] columns = line.strip().split("\\s+");
        if (columns.length == 5 && RootRow.KINDS.contains(columns[0])) {
            return Optional.of(ConformanceRunner.Expect.ROOTS);
        }
        return Optional.empty();
    }

    /** The hint for output of {@code shape} when {@code expected} was asked for. */
    static String hint(ConformanceRunner.Expect shape, ConformanceRunner.Expect expected) {
        return String.format(Locale.ROOT, "the walker's output looks like %s, not %s: did you mean --expect %s?", shape.looks(), expected.looks(),
                shape.name().toLowerCase(Locale.ROOT));
    }
}
