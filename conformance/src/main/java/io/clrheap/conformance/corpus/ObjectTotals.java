package io.clrheap.conformance.corpus;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How many objects a fixture's heap holds and their bytes, free objects included: the {@code Total N objects, M bytes}
 * line of its {@code dumpheap-stat.txt}.
 *
 * @param objects the objects
 * @param bytes   their unaligned sizes, summed
 */
public record ObjectTotals(long objects, long bytes) {

    private static final Pattern TOTAL = Pattern.compile("Total ([0-9,]+) objects, ([0-9,]+) bytes");

    public ObjectTotals {
        if (objects < 0 || bytes < 0) {
            throw new IllegalArgumentException("object totals are not negative: " + objects + " objects, " + bytes + " bytes");
        }
    }

    /**
     * The totals {@code dumpheap-stat.txt} states in its last line; an empty file is an empty heap (SOS prints nothing then).
     *
     * @throws IOException when the file cannot be read or its last line is not a Total line (the message names the file)
     */
    public static ObjectTotals of(Path dumpHeapStat) throws IOException {
        List<String> lines = Files.readAllLines(dumpHeapStat, StandardCharsets.UTF_8);
        if (lines.isEmpty()) {
            return new ObjectTotals(0, 0);
        }
        String last = lines.getLast();
        Matcher m = TOTAL.matcher(last);
        if (!m.matches()) {
            throw new IOException(dumpHeapStat + ": the last line is not 'Total N objects, M bytes' but '" + last + "'");
        }
        return new ObjectTotals(Long.parseLong(m.group(1).replace(",", "")), Long.parseLong(m.group(2).replace(",", "")));
    }

    /** {@code 1,234 objects, 56,789 bytes}. */
    public String describe() {
        return String.format(Locale.ROOT, "%,d objects, %,d bytes", objects, bytes);
    }
}
