package io.clrheap.cli;

import io.clrheap.walker.report.DumpHeapStat;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code dumpheap -stat} of objects reported out of address order (the DAC walks generation by generation): per
 * MethodTable its count, bytes and lowest address, so that types with equal TotalSize print in the order a walk in
 * address order first meets them, as the walker's report does.
 */
final class FirstSeenStat {

    private final Map<Long, long[]> rows = new HashMap<>(); // mt -> {count, bytes, lowest address}

    void object(long address, long mt, long size) {
        long[] row = rows.computeIfAbsent(mt, k -> new long[] {0, 0, address});
        row[0]++;
        row[1] += size;
        if (Long.compareUnsigned(address, row[2]) < 0) {
            row[2] = address;
        }
    }

    DumpHeapStat toDumpHeapStat() {
        List<Map.Entry<Long, long[]>> ordered = new ArrayList<>(rows.entrySet());
        ordered.sort((a, b) -> Long.compareUnsigned(a.getValue()[2], b.getValue()[2]));
        DumpHeapStat stat = new DumpHeapStat();
        for (Map.Entry<Long, long[]> e : ordered) {
            stat.add(e.getKey(), e.getValue()[0], e.getValue()[1]);
        }
        return stat;
    }
}
