package io.clrheap.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.clrheap.walker.query.StringStatistics;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * {@code walk --stat --strings}: the library's {@link StringStatistics} printed as SOS's {@code dumpheap -strings}
 * (Count, TotalSize, Value: the first {@value #SHOWN} characters, control characters escaped), or with {@code --json}
 * every value whole (docs/schemas/strings.schema.json).
 */
final class StringStatReport {

    static final int SHOWN = 80;

    private StringStatReport() {
    }

    static void print(PrintWriter out, StringStatistics statistics) {
        List<StringStatistics.Row> rows = statistics.rows();
        out.printf(Locale.ROOT, "%8s %10s %s%n", "Count", "TotalSize", "Value");
        long count = 0;
        long bytes = 0;
        for (StringStatistics.Row r : rows) {
            out.printf(Locale.ROOT, "%,8d %,10d %s%n", r.count(), r.totalSize(), shown(r.value()));
            count += r.count();
            bytes += r.totalSize();
        }
        if (statistics.others() > 0) {
            out.printf(Locale.ROOT, "%,8d %,10d (further distinct values, not listed)%n", statistics.others(), statistics.othersBytes());
        }
        out.printf(Locale.ROOT, "Total %,d strings, %,d bytes, %,d distinct values%s%n", count + statistics.others(), bytes + statistics.othersBytes(),
                rows.size(), statistics.unreadable() > 0 ? String.format(Locale.ROOT, "; %,d unreadable", statistics.unreadable()) : "");
        out.flush();
    }

    static ObjectNode json(StringStatistics statistics) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        ArrayNode list = root.putArray("rows");
        long count = 0;
        long bytes = 0;
        for (StringStatistics.Row r : statistics.rows()) {
            ObjectNode row = list.addObject();
            row.put("count", r.count());
            row.put("totalSize", r.totalSize());
            row.put("value", r.value());
            count += r.count();
            bytes += r.totalSize();
        }
        root.put("strings", count + statistics.others());
        root.put("bytes", bytes + statistics.othersBytes());
        root.put("distinctValues", list.size());
        root.put("notListed", statistics.others());
        root.put("unreadable", statistics.unreadable());
        return root;
    }

    /** The value as one line: newline, return and tab as \n \r \t, other control characters as \\uXXXX, cut at SHOWN. */
    static String shown(String value) {
        StringBuilder s = new StringBuilder();
        int i = 0;
        for (; i < value.length() && s.length() < SHOWN; i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\n' -> s.append("\\n");
                case '\r' -> s.append("\\r");
                case '\t' -> s.append("\\t");
                default -> s.append(Character.isISOControl(c) ? String.format(Locale.ROOT, "\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return i < value.length() ? s + "…" : s.toString();
    }
}
