package io.clrheap.walker.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.walk.ObjectVisitor;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.Locale;

/**
 * {@code dumpheap -stat}: objects and bytes per MethodTable, printed as current SOS prints it
 * (docs/reference/walker-semantics.md section 6.1): columns {@code MT Count TotalSize Class Name} right-aligned with thousands
 * separators, rows by ascending TotalSize (ties in first-seen order), a {@code Free} row, then
 * {@code Total N objects, M bytes}. Sizes are the unaligned object sizes.
 */
public final class DumpHeapStat implements ObjectVisitor {

    /**
     * The rows, by MethodTable, in one open-addressing table of 4 longs a slot — [mt, row, count, total], mt 0 for
     * an empty slot — so that counting an object touches one place in memory.
     */
    private long[] slots = new long[4 * 256];
    /** The MethodTables in first-seen order (row order) and the slot of each row. */
    private long[] mts = new long[256];
    private int[] slotOfRow = new int[256];
    private int size;

    private static int hash(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    @Override
    public void object(long address, long methodTable, long objectSize, Region region) {
        add(methodTable, 1, objectSize);
    }

    /**
     * Adds {@code count} objects of {@code bytes} bytes in all to {@code methodTable}'s row; a new row comes after the rows
     * seen so far (ties in TotalSize print in first-seen order).
     */
    public void add(long methodTable, long count, long bytes) {
        if (methodTable == 0) {
            throw new IllegalArgumentException("MethodTable 0 has no row"); // the walk reports such objects, never visits them
        }
        long[] t = slots;
        int mask = t.length - 4;
        int i = (hash(methodTable) << 2) & mask;
        for (long k; (k = t[i]) != methodTable; i = (i + 4) & mask) {
            if (k == 0) {
                i = insert(methodTable);
                t = slots;
                break;
            }
        }
        t[i + 2] += count;
        t[i + 3] += bytes;
    }

    /** A new row for {@code methodTable} (not 0, not in the table yet): the index of its slot. */
    private int insert(long methodTable) {
        if (size == mts.length) {
            mts = Arrays.copyOf(mts, size * 2);
            slotOfRow = Arrays.copyOf(slotOfRow, size * 2);
        }
        if ((size + 1) * 8 > slots.length) { // more than half the slots used: double
            long[] old = slots;
            slots = new long[old.length * 2];
            for (int row = 0; row < size; row++) {
                int from = slotOfRow[row];
                int to = free(old[from]);
                System.arraycopy(old, from, slots, to, 4);
                slotOfRow[row] = to;
            }
        }
        int i = free(methodTable);
        slots[i] = methodTable;
        slots[i + 1] = size;
        mts[size] = methodTable;
        slotOfRow[size] = i;
        size++;
        return i;
    }

    /** The empty slot where {@code methodTable} goes. */
    private int free(long methodTable) {
        int mask = slots.length - 4;
        int i = (hash(methodTable) << 2) & mask;
        while (slots[i] != 0) {
            i = (i + 4) & mask;
        }
        return i;
    }

    private long countOf(int row) {
        return slots[slotOfRow[row] + 2];
    }

    private long totalOf(int row) {
        return slots[slotOfRow[row] + 3];
    }

    /** Adds another walk's rows after this one's (first-seen order is kept: merge in walk order). */
    public DumpHeapStat merge(DumpHeapStat other) {
        for (int i = 0; i < other.size; i++) {
            add(other.mts[i], other.countOf(i), other.totalOf(i));
        }
        return this;
    }

    public long objects() {
        long n = 0;
        for (int i = 0; i < size; i++) {
            n += countOf(i);
        }
        return n;
    }

    public long bytes() {
        long n = 0;
        for (int i = 0; i < size; i++) {
            n += totalOf(i);
        }
        return n;
    }

    /** Count of {@code mt}'s objects (0 if none). */
    public long count(long mt) {
        if (mt == 0) {
            return 0;
        }
        int mask = slots.length - 4;
        for (int i = (hash(mt) << 2) & mask; slots[i] != 0; i = (i + 4) & mask) {
            if (slots[i] == mt) {
                return slots[i + 2];
            }
        }
        return 0;
    }

    private Integer[] order() {
        Integer[] order = new Integer[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compare(totalOf(a), totalOf(b))); // stable: ties keep first-seen order
        return order;
    }

    public void print(PrintWriter out, TypeNames names, long freeMethodTable) {
        // with nothing matched, the header and "Total 0 objects" still, as native SOS's HeapStat::Print does: an empty
        // answer says so rather than printing nothing
        Integer[] order = order();
        int mtWidth = 12;
        int countWidth = "Count".length();
        int totalWidth = "TotalSize".length();
        for (int i = 0; i < size; i++) {
            mtWidth = Math.max(mtWidth, Long.toHexString(mts[i]).length());
            countWidth = Math.max(countWidth, n0(countOf(i)).length());
            totalWidth = Math.max(totalWidth, n0(totalOf(i)).length());
        }
        out.println("Statistics:");
        out.println(pad("MT", mtWidth) + " " + pad("Count", countWidth) + " " + pad("TotalSize", totalWidth) + " Class Name");
        for (int i : order) {
            out.println(pad(String.format("%012x", mts[i]), mtWidth) + " " + pad(n0(countOf(i)), countWidth) + " "
                    + pad(n0(totalOf(i)), totalWidth) + " " + names.display(mts[i], freeMethodTable));
        }
        out.println("Total " + n0(objects()) + " objects, " + n0(bytes()) + " bytes");
    }

    public ObjectNode toJson(TypeNames names, long freeMethodTable) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        ArrayNode rowsJson = root.putArray("rows");
        for (int i : order()) {
            ObjectNode row = rowsJson.addObject();
            row.put("mt", String.format("0x%x", mts[i]));
            row.put("count", countOf(i));
            row.put("totalSize", totalOf(i));
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
