package io.clrheap.walker.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.clrheap.walker.discovery.Region;
import io.clrheap.walker.walk.LongIntMap;
import io.clrheap.walker.walk.ObjectVisitor;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.Locale;

/**
 * {@code dumpheap -stat}: objects and bytes per MethodTable, printed as current SOS prints it
 * (walker-semantics.md section 6.1): columns {@code MT Count TotalSize Class Name} right-aligned with thousands
 * separators, rows by ascending TotalSize (ties in first-seen order), a {@code Free} row, then
 * {@code Total N objects, M bytes}. Sizes are the unaligned object sizes.
 */
public final class DumpHeapStat implements ObjectVisitor {

    private final LongIntMap rows = new LongIntMap(1024, Integer.MAX_VALUE);
    private long[] mts = new long[256];
    private long[] counts = new long[256];
    private long[] totals = new long[256];
    private int size;

    @Override
    public void object(long address, long methodTable, long objectSize, Region region) {
        add(methodTable, 1, objectSize);
    }

    private void add(long methodTable, long count, long bytes) {
        int row = rows.get(methodTable, -1);
        if (row < 0) {
            if (size == mts.length) {
                mts = Arrays.copyOf(mts, size * 2);
                counts = Arrays.copyOf(counts, size * 2);
                totals = Arrays.copyOf(totals, size * 2);
            }
            row = size++;
            mts[row] = methodTable;
            rows.put(methodTable, row);
        }
        counts[row] += count;
        totals[row] += bytes;
    }

    /** Adds another walk's rows after this one's (first-seen order is kept: merge in walk order). */
    public DumpHeapStat merge(DumpHeapStat other) {
        for (int i = 0; i < other.size; i++) {
            add(other.mts[i], other.counts[i], other.totals[i]);
        }
        return this;
    }

    public long objects() {
        long n = 0;
        for (int i = 0; i < size; i++) {
            n += counts[i];
        }
        return n;
    }

    public long bytes() {
        long n = 0;
        for (int i = 0; i < size; i++) {
            n += totals[i];
        }
        return n;
    }

    /** Count of {@code mt}'s objects (0 if none). */
    public long count(long mt) {
        int row = rows.get(mt, -1);
        return row < 0 ? 0 : counts[row];
    }

    private Integer[] order() {
        Integer[] order = new Integer[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compare(totals[a], totals[b])); // stable: ties keep first-seen order
        return order;
    }

    public void print(PrintWriter out, TypeNames names, long freeMethodTable) {
        if (size == 0) {
            return; // SOS prints neither header nor total when nothing matched
        }
        Integer[] order = order();
        int mtWidth = 12;
        int countWidth = "Count".length();
        int totalWidth = "TotalSize".length();
        for (int i = 0; i < size; i++) {
            mtWidth = Math.max(mtWidth, Long.toHexString(mts[i]).length());
            countWidth = Math.max(countWidth, n0(counts[i]).length());
            totalWidth = Math.max(totalWidth, n0(totals[i]).length());
        }
        out.println("Statistics:");
        out.println(pad("MT", mtWidth) + " " + pad("Count", countWidth) + " " + pad("TotalSize", totalWidth) + " Class Name");
        for (int i : order) {
            out.println(pad(String.format("%012x", mts[i]), mtWidth) + " " + pad(n0(counts[i]), countWidth) + " "
                    + pad(n0(totals[i]), totalWidth) + " " + names.display(mts[i], freeMethodTable));
        }
        out.println("Total " + n0(objects()) + " objects, " + n0(bytes()) + " bytes");
    }

    public ObjectNode toJson(TypeNames names, long freeMethodTable) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        ArrayNode rowsJson = root.putArray("rows");
        for (int i : order()) {
            ObjectNode row = rowsJson.addObject();
            row.put("mt", String.format("0x%x", mts[i]));
            row.put("count", counts[i]);
            row.put("totalSize", totals[i]);
            row.put("type", names.display(mts[i], freeMethodTable));
        }
        root.put("objects", objects());
        root.put("bytes", bytes());
        return root;
    }

    private static String n0(long v) {
        return String.format(Locale.ROOT, "%,d", v);
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }
}
