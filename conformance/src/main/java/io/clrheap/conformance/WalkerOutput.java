package io.clrheap.conformance;

import java.io.IOException;
import java.nio.file.Path;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an external walker printed, parsed: either SOS-style {@code dumpheap -stat} text (rows {@code MT Count
 * TotalSize Class Name}, thousands separators allowed, a {@code Total N objects, M bytes} line) or an object listing
 * (lines {@code address mt size}, whitespace- or tab-separated, hex with {@code 0x}, an optional header line).
 * Lines that are neither are ignored, so banners and warnings a walker prints do not matter; a line that starts like
 * a row but does not parse (a bad or too large number) is kept as a parse problem naming the line.
 *
 * <p>Whatever the walker printed, reading it cannot fail or exhaust the Java heap: the output is read as bytes one line
 * at a time ({@link OutputLines}); a line longer than 1 MiB is a problem and is skipped; bytes that are not UTF-8 are
 * read as U+FFFD and noted with their line and byte offset; at most {@link #MAX_ROWS} objects or
 * {@link #MAX_TYPES} types are kept (24 bytes an object), more is a problem and the rest is not read.
 */
public final class WalkerOutput {

    /** A row of the statistics: objects and bytes of one MethodTable. */
    public record StatRow(long count, long bytes, String name) {
    }

    /**
     * The statistics table: MethodTable → row, and the Total line (-1 when missing); the lines that did not parse
     * ({@code problems}) and where the output was not UTF-8 ({@code notes}).
     */
    public record Stat(Map<Long, StatRow> rows, long totalObjects, long totalBytes, ParseProblems problems, List<String> notes) {
        public Stat(Map<Long, StatRow> rows, long totalObjects, long totalBytes) {
            this(rows, totalObjects, totalBytes, ParseProblems.NONE, List.of());
        }
    }

    /** One object of a listing. */
    public record Listed(long address, long mt, long size) {
    }

    /** An object listing in address order, the lines that did not parse ({@code problems}), where it was not UTF-8 ({@code notes}). */
    public record Listing(List<Listed> objects, ParseProblems problems, List<String> notes) {
    }

    private static final Pattern STAT_ROW = Pattern.compile("^\\s*(?:0x)?([0-9a-fA-F]{6,16})\\s+([0-9,]+)\\s+([0-9,]+)\\s+(.+?)\\s*$");
    /** A line that starts like a statistics row: a MethodTable, then a number. */
    private static final Pattern STAT_ROW_START = Pattern.compile("^\\s*(?:0x)?[0-9a-fA-F]{6,}\\s+[0-9]");
    private static final Pattern TOTAL = Pattern.compile("^\\s*Total\\s+([0-9,]+)\\s+objects?,\\s+([0-9,]+)\\s+bytes\\s*$");
    private static final Pattern TOTAL_START = Pattern.compile("^\\s*Total\\s+[0-9]");
    private static final Pattern LISTED = Pattern.compile("^\\s*0x([0-9a-fA-F]+)\\s+0x([0-9a-fA-F]+)\\s+([0-9]+)\\b.*$");
    /** A line that starts like a listing row: a hex address, then more. */
    private static final Pattern LISTED_START = Pattern.compile("^\\s*0x[0-9a-fA-F]+\\s+\\S");

    /** At most this many objects are kept (as three longs each): a walker that prints without end cannot exhaust the Java heap. */
    static final int MAX_ROWS = 10_000_000;
    /** At most this many rows of statistics are kept. */
    static final int MAX_TYPES = 1_000_000;
    /** Class names are kept up to this many characters. */
    static final int MAX_NAME = 1_000;
    /** Problems kept with their text; the others are counted. */
    static final int PROBLEMS = 100;
    /** How much of a line a problem quotes. */
    private static final int QUOTED = 120;

    private WalkerOutput() {
    }

    public static Stat parseStat(Path output) throws IOException {
        Map<Long, StatRow> rows = new LinkedHashMap<>();
        Problems problems = new Problems();
        long totalObjects = -1;
        long totalBytes = -1;
        try (OutputLines in = OutputLines.open(output)) {
            OutputLines.Line l;
            while ((l = in.nextFitting(problems)) != null) {
                String line = l.text();
                Matcher total = TOTAL.matcher(line);
                if (total.matches()) {
                    try {
                        totalObjects = number(total.group(1), "object count");
                        totalBytes = number(total.group(2), "byte count");
                    } catch (NumberFormatException e) {
                        problems.add(l, "the Total line: " + e.getMessage());
                        totalObjects = -2;
                    }
                    continue;
                }
                if (TOTAL_START.matcher(line).find()) {
                    problems.add(l, "starts like the 'Total N objects, M bytes' line but is not one");
                    continue;
                }
                Matcher row = STAT_ROW.matcher(line);
                if (row.matches()) {
                    if (rows.size() >= MAX_TYPES) {
                        problems.add(l, String.format(Locale.ROOT, "more than %,d rows of statistics; the rest was not read", MAX_TYPES));
                        break;
                    }
                    long mt = Long.parseUnsignedLong(row.group(1), 16);
                    try {
                        long count = number(row.group(2), "count");
                        long bytes = number(row.group(3), "byte count");
                        String name = row.group(4).length() > MAX_NAME ? row.group(4).substring(0, MAX_NAME) + "…" : row.group(4);
                        if (rows.putIfAbsent(mt, new StatRow(count, bytes, name)) != null) {
                            problems.add(l, String.format(Locale.ROOT, "MethodTable 0x%x has a second row", mt));
                        }
                    } catch (NumberFormatException e) {
                        problems.add(l, e.getMessage());
                    }
                } else if (STAT_ROW_START.matcher(line).find()) {
                    problems.add(l, "starts like a row 'MT Count TotalSize Class Name' but is not one (a MethodTable has at most 16 hex digits; "
                            + "counts are decimal)");
                }
            }
            return new Stat(rows, totalObjects, totalBytes, problems.list(), in.notes());
        }
    }

    /** Reads a listing; the objects are sorted by address (walkers may print them in any order). */
    public static List<Listed> parseObjects(Path output) throws IOException {
        return readObjects(output).objects();
    }

    /** Reads a listing with the lines that did not parse; the objects are sorted by address. */
    public static Listing readObjects(Path output) throws IOException {
        Packed objects = new Packed();
        Problems problems = new Problems();
        try (OutputLines in = OutputLines.open(output)) {
            OutputLines.Line l;
            while ((l = in.nextFitting(problems)) != null) {
                String line = l.text();
                Matcher m = LISTED.matcher(line);
                if (m.matches()) {
                    if (objects.size() >= MAX_ROWS) {
                        problems.add(l, String.format(Locale.ROOT, "more than %,d objects listed; the rest was not read", MAX_ROWS));
                        break;
                    }
                    try {
                        objects.add(hex(m.group(1), "address"), hex(m.group(2), "MethodTable"), number(m.group(3), "size"));
                    } catch (NumberFormatException e) {
                        problems.add(l, e.getMessage());
                    }
                } else if (LISTED_START.matcher(line).find()) {
                    problems.add(l, "starts like an object '0x<address> 0x<mt> <size>' but is not one");
                }
            }
            objects.sort();
            return new Listing(objects, problems.list(), in.notes());
        }
    }

    /** A decimal number with optional thousands separators, below 2^63. */
    static long number(String digits, String what) {
        String plain = digits.replace(",", "");
        if (plain.isEmpty() || !plain.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new NumberFormatException("the " + what + " '" + quote(digits, 40) + "' is not a decimal number");
        }
        try {
            return Long.parseLong(plain);
        } catch (NumberFormatException e) {
            throw new NumberFormatException("the " + what + " " + digits + " is not below 2^63 (9,223,372,036,854,775,808)");
        }
    }

    /** A hexadecimal number of 64 bits at most. */
    static long hex(String digits, String what) {
        if (digits.isEmpty() || !digits.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw new NumberFormatException("the " + what + " '0x" + quote(digits, 40) + "' is not a hexadecimal number");
        }
        try {
            return Long.parseUnsignedLong(digits, 16);
        } catch (NumberFormatException e) {
            throw new NumberFormatException("the " + what + " 0x" + quote(digits, 40) + " does not fit in 64 bits");
        }
    }

    static String quote(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + "…";
    }

    /**
     * Problems of one output (also of the graph listings): a walker that prints one wrong line prints it for every
     * object, so identical problems (the same words, another line) are collapsed into one line with their count;
     * {@link #PROBLEMS} different ones are described, the rest counted.
     */
    static final class Problems {
        /** A problem and where it was first met. */
        private static final class Seen {
            private final long line;
            private final String quoted;
            private long count;

            Seen(long line, String quoted) {
                this.line = line;
                this.quoted = quoted;
            }
        }

        private final Map<String, Seen> seen = new LinkedHashMap<>();
        private long count;
        private long undescribed;

        void add(OutputLines.Line l, String what) {
            add(what, l.number(), quote(l.text().strip(), QUOTED));
        }

        /** A problem that is no one line's (a line too long to read, an object listed twice). */
        void add(String what) {
            add(what, -1, null);
        }

        private void add(String what, long line, String quoted) {
            count++;
            Seen s = seen.get(what);
            if (s == null) {
                if (seen.size() >= PROBLEMS) {
                    undescribed++;
                    return;
                }
                s = new Seen(line, quoted);
                seen.put(what, s);
            }
            s.count++;
        }

        ParseProblems list() {
            List<String> all = new ArrayList<>();
            seen.forEach((what, s) -> {
                if (s.line < 0) {
                    all.add(s.count == 1 ? what : String.format(Locale.ROOT, "%s (%,d times)", what, s.count));
                } else if (s.count == 1) {
                    all.add(String.format(Locale.ROOT, "line %d: %s: '%s'", s.line, what, s.quoted));
                } else {
                    all.add(String.format(Locale.ROOT, "%,d lines like line %d: %s: '%s'", s.count, s.line, what, s.quoted));
                }
            });
            if (undescribed > 0) {
                all.add(String.format(Locale.ROOT, "%,d more lines that do not parse", undescribed));
            }
            return new ParseProblems(all, count, undescribed == 0);
        }
    }

    /** Objects as three longs each (not an object apiece), read-only as a list once sorted. */
    private static final class Packed extends AbstractList<Listed> {
        private long[] values = new long[3 * 1024];
        private int size;

        void add(long address, long mt, long objectSize) {
            if (3 * size + 3 > values.length) {
                values = Arrays.copyOf(values, (int) Math.min(3L * MAX_ROWS, values.length + (values.length >> 1) + 3));
            }
            values[3 * size] = address;
            values[3 * size + 1] = mt;
            values[3 * size + 2] = objectSize;
            size++;
        }

        /** Sorts by unsigned address; walkers mostly print in address order, which costs one pass. */
        void sort() {
            boolean sorted = true;
            for (int i = 1; i < size && sorted; i++) {
                sorted = Long.compareUnsigned(values[3 * (i - 1)], values[3 * i]) <= 0;
            }
            if (sorted) {
                return;
            }
            Listed[] all = new Listed[size];
            for (int i = 0; i < size; i++) {
                all[i] = get(i);
            }
            Arrays.sort(all, (a, b) -> Long.compareUnsigned(a.address(), b.address()));
            for (int i = 0; i < size; i++) {
                values[3 * i] = all[i].address();
                values[3 * i + 1] = all[i].mt();
                values[3 * i + 2] = all[i].size();
            }
        }

        @Override
        public Listed get(int index) {
            java.util.Objects.checkIndex(index, size);
            return new Listed(values[3 * index], values[3 * index + 1], values[3 * index + 2]);
        }

        @Override
        public int size() {
            return size;
        }
    }
}
