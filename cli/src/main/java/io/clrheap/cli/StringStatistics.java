package io.clrheap.cli;

import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.walk.ObjectVisitor;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code walk --stat --strings}: the strings grouped by value, as SOS's {@code dumpheap -strings} groups them: count,
 * total size and the value (the first {@value #SHOWN} characters, control characters escaped), smallest total first.
 * A value is read up to {@value #KEPT} characters (longer ones are grouped by that prefix and their length); at most
 * {@value #MAX_VALUES} distinct values are kept, the rest counted together.
 */
final class StringStatistics implements ObjectVisitor {

    static final int SHOWN = 80;
    static final int KEPT = 4096;
    static final int MAX_VALUES = 1 << 20;

    private final Memory memory;
    private final long lengthOffset;
    private final long charsOffset;
    private final Map<String, long[]> byValue = new HashMap<>();
    private long others;
    private long othersBytes;
    private long unreadable;

    StringStatistics(Memory memory, RuntimeLayout layout) {
        this.memory = memory;
        this.lengthOffset = layout.offset("String", "m_StringLength");
        this.charsOffset = layout.offset("String", "m_FirstChar");
    }

    @Override
    public void object(long address, long methodTable, long size, Region region) {
        String key;
        try {
            long length = memory.readU32(address + lengthOffset);
            int read = (int) Math.min(length, KEPT);
            String value = new String(memory.readBytes(address + charsOffset, 2 * read), StandardCharsets.UTF_16LE);
            key = length > KEPT ? value + "…(" + length + " chars)" : value;
        } catch (MissingMemoryException e) {
            unreadable++;
            return;
        }
        long[] stat = byValue.get(key);
        if (stat == null) {
            if (byValue.size() >= MAX_VALUES) {
                others++;
                othersBytes += size;
                return;
            }
            byValue.put(key, stat = new long[2]);
        }
        stat[0]++;
        stat[1] += size;
    }

    void print(PrintWriter out) {
        List<Map.Entry<String, long[]>> rows = new ArrayList<>(byValue.entrySet());
        rows.sort((a, b) -> a.getValue()[1] != b.getValue()[1] ? Long.compare(a.getValue()[1], b.getValue()[1]) : a.getKey().compareTo(b.getKey()));
        out.printf(Locale.ROOT, "%8s %10s %s%n", "Count", "TotalSize", "Value");
        long count = 0;
        long bytes = 0;
        for (Map.Entry<String, long[]> r : rows) {
            out.printf(Locale.ROOT, "%,8d %,10d %s%n", r.getValue()[0], r.getValue()[1], shown(r.getKey()));
            count += r.getValue()[0];
            bytes += r.getValue()[1];
        }
        if (others > 0) {
            out.printf(Locale.ROOT, "%,8d %,10d (%s more distinct values, not listed)%n", others, othersBytes, "further");
        }
        out.printf(Locale.ROOT, "Total %,d strings, %,d bytes, %,d distinct values%s%n", count + others, bytes + othersBytes, rows.size(),
                unreadable > 0 ? String.format(Locale.ROOT, "; %,d unreadable", unreadable) : "");
        out.flush();
    }

    private static String shown(String value) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < value.length() && s.length() < SHOWN; i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\n' -> s.append("\\n");
                case '\r' -> s.append("\\r");
                case '\t' -> s.append("\\t");
                default -> s.append(Character.isISOControl(c) ? String.format(Locale.ROOT, "\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return value.length() > SHOWN ? s + "…" : s.toString();
    }
}
