package io.clrheap.capture.snapshot;

import io.clrheap.capture.nettrace.PayloadException;
import io.clrheap.capture.nettrace.PayloadReader;
import java.util.Arrays;

/**
 * One compacting GC's moves, from its GCBulkMovedObjectRanges events ({@code u32 Index, u32 Count, u16 ClrInstanceID},
 * then Count × {@code {u64 OldRangeBase, u64 NewRangeBase, u64 RangeLength}}): the objects in
 * {@code [old, old + length)} went to {@code [new, new + length)}. {@link #before} maps an address after the GC back to
 * where the object was before it.
 */
final class Relocation {

    /** new bases, ascending; the old base and length of each at the same index */
    private final long[] newBase;
    private final long[] oldBase;
    private final long[] length;
    private final long lastTimestamp;

    private Relocation(long[] newBase, long[] oldBase, long[] length, long lastTimestamp) {
        this.newBase = newBase;
        this.oldBase = oldBase;
        this.length = length;
        this.lastTimestamp = lastTimestamp;
    }

    /** The time of this GC's last moved-ranges event: events after it name objects where the GC put them. */
    long lastTimestamp() {
        return lastTimestamp;
    }

    int size() {
        return newBase.length;
    }

    /** Where the object at {@code address} after the GC was before it ({@code address} itself when no range moved it). */
    long before(long address) {
        int lo = 0;
        int hi = newBase.length - 1;
        int found = -1;
        while (lo <= hi) { // the last range starting at or below the address
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(newBase[mid], address) <= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (found >= 0 && Long.compareUnsigned(address - newBase[found], length[found]) < 0) {
            return oldBase[found] + (address - newBase[found]);
        }
        return address;
    }

    /** Collects one GC's moved ranges. */
    static final class Builder {

        private final LongList news = new LongList();
        private final LongList olds = new LongList();
        private final LongList lengths = new LongList();
        private long lastTimestamp;

        void add(long timestamp, PayloadReader p) throws PayloadException {
            p.u32(); // Index
            int n = p.count("GCBulkMovedObjectRanges", 24);
            p.u16(); // ClrInstanceID
            for (int i = 0; i < n; i++) {
                long from = p.i64();
                long to = p.i64();
                long bytes = p.i64();
                if (bytes != 0) {
                    olds.add(from);
                    news.add(to);
                    lengths.add(bytes);
                }
            }
            if (Long.compareUnsigned(timestamp, lastTimestamp) > 0) {
                lastTimestamp = timestamp;
            }
        }

        Relocation build() {
            int n = news.size();
            Integer[] order = new Integer[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, b) -> Long.compareUnsigned(news.get(a), news.get(b)));
            long[] nb = new long[n];
            long[] ob = new long[n];
            long[] len = new long[n];
            for (int i = 0; i < n; i++) {
                nb[i] = news.get(order[i]);
                ob[i] = olds.get(order[i]);
                len[i] = lengths.get(order[i]);
            }
            return new Relocation(nb, ob, len, lastTimestamp);
        }
    }
}
