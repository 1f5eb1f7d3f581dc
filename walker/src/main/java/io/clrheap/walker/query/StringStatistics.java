package io.clrheap.walker.query;

import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.walk.ObjectVisitor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Strings grouped by value, as SOS's {@code dumpheap -strings} groups them: a visitor to give the walk only strings
 * ({@link ObjectCriteria#stringsOnly()}), then {@link #rows()}, smallest total size first. A value is read up to
 * {@value #KEPT} characters (longer ones are grouped by that prefix and their length, the value ending with
 * "…(N chars)"); at most {@value #MAX_VALUES} distinct values are kept, the strings past that counted together.
 */
public final class StringStatistics implements ObjectVisitor {

    public static final int KEPT = 4096;
    public static final int MAX_VALUES = 1 << 20;

    /** One distinct value: how many strings hold it and their total size in bytes. */
    public record Row(String value, long count, long totalSize) {
    }

    private final Memory memory;
    private final long lengthOffset;
    private final long charsOffset;
    private final Map<String, long[]> byValue = new HashMap<>();
    private long others;
    private long othersBytes;
    private long unreadable;

    public StringStatistics(Memory memory, RuntimeLayout layout) {
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

    /** The distinct values, smallest total size first (ties by value), as SOS lists them. */
    public List<Row> rows() {
        List<Row> rows = new ArrayList<>(byValue.size());
        byValue.forEach((value, stat) -> rows.add(new Row(value, stat[0], stat[1])));
        rows.sort((a, b) -> a.totalSize() != b.totalSize() ? Long.compare(a.totalSize(), b.totalSize()) : a.value().compareTo(b.value()));
        return rows;
    }

    /** Strings not listed in {@link #rows()}: past {@value #MAX_VALUES} distinct values. */
    public long others() {
        return others;
    }

    public long othersBytes() {
        return othersBytes;
    }

    /** Strings whose length or characters are not in the dump. */
    public long unreadable() {
        return unreadable;
    }
}
