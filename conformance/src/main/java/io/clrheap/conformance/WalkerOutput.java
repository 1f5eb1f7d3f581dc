package io.clrheap.conformance;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an external walker printed, parsed: either SOS-style {@code dumpheap -stat} text (rows {@code MT Count
 * TotalSize Class Name}, thousands separators allowed, a {@code Total N objects, M bytes} line) or an object listing
 * (lines {@code address mt size}, whitespace- or tab-separated, hex with {@code 0x}, an optional header line).
 * Lines that are neither are ignored, so banners and warnings a walker prints do not matter; a line that starts like
 * a row but does not parse is kept as a parse problem.
 */
public final class WalkerOutput {

    /** A row of the statistics: objects and bytes of one MethodTable. */
    public record StatRow(long count, long bytes, String name) {
    }

    /** The statistics table: MethodTable → row, and the Total line (-1 when missing). */
    public record Stat(Map<Long, StatRow> rows, long totalObjects, long totalBytes, List<String> problems) {
    }

    /** One object of a listing. */
    public record Listed(long address, long mt, long size) {
    }

    private static final Pattern STAT_ROW = Pattern.compile("^\\s*(?:0x)?([0-9a-fA-F]{6,16})\\s+([0-9,]+)\\s+([0-9,]+)\\s+(.+?)\\s*$");
    private static final Pattern TOTAL = Pattern.compile("^\\s*Total\\s+([0-9,]+)\\s+objects?,\\s+([0-9,]+)\\s+bytes\\s*$");
    private static final Pattern LISTED = Pattern.compile("^\\s*0x([0-9a-fA-F]{1,16})\\s+0x([0-9a-fA-F]{1,16})\\s+([0-9]+)\\b.*$");

    /** At most this many rows are read: a walker that prints without end cannot exhaust the Java heap. */
    static final int MAX_ROWS = 10_000_000;

    private WalkerOutput() {
    }

    public static Stat parseStat(Path output) throws IOException {
        Map<Long, StatRow> rows = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        long totalObjects = -1;
        long totalBytes = -1;
        try (BufferedReader in = Files.newBufferedReader(output, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while ((line = in.readLine()) != null && rows.size() < MAX_ROWS) {
                number++;
                Matcher total = TOTAL.matcher(line);
                if (total.matches()) {
                    totalObjects = number(total.group(1));
                    totalBytes = number(total.group(2));
                    continue;
                }
                Matcher row = STAT_ROW.matcher(line);
                if (row.matches()) {
                    long mt = Long.parseUnsignedLong(row.group(1), 16);
                    if (rows.putIfAbsent(mt, new StatRow(number(row.group(2)), number(row.group(3)), row.group(4))) != null) {
                        problems.add(String.format("line %d: MethodTable 0x%x has a second row", number, mt));
                    }
                }
            }
        }
        return new Stat(rows, totalObjects, totalBytes, problems);
    }

    /** Reads a listing; the objects are sorted by address (walkers may print them in any order). */
    public static List<Listed> parseObjects(Path output) throws IOException {
        List<Listed> objects = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(output, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null && objects.size() < MAX_ROWS) {
                Matcher m = LISTED.matcher(line);
                if (m.matches()) {
                    objects.add(new Listed(Long.parseUnsignedLong(m.group(1), 16), Long.parseUnsignedLong(m.group(2), 16), Long.parseLong(m.group(3))));
                }
            }
        }
        objects.sort((a, b) -> Long.compareUnsigned(a.address(), b.address()));
        return objects;
    }

    private static long number(String digits) {
        return Long.parseLong(digits.replace(",", ""));
    }
}
