package io.clrheap.capture;

import io.clrheap.capture.snapshot.GcHeapSnapshot;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import java.util.List;

/**
 * Whether a heap snapshot describes the dump taken just before it: the snapshot's GC walks the heap before relocating
 * (docs/reference/real-data.md), so each listed object's MethodTable word should be in the dump at its address. Seen on .NET 10.0.9
 * server GC: now and then the snapshot lists the objects where that GC moved them, and nearly none is found.
 *
 * @param checked objects of the snapshot looked up in the dump
 * @param found those whose MethodTable word (GC mark bits masked) is the listed MethodTable
 * @param firstMismatch the address of the first object not found, or -1
 */
record SnapshotAgreement(long checked, long found, long firstMismatch) {

    /** The GC's mark and pinned bits in the MethodTable word (docs/reference/walker-semantics.md section 7, item 24). */
    private static final long MARK_BITS = 7;
    /** Objects allowed to disagree: none in a consistent capture; a few for objects a finalizer thread touched. */
    private static final double MISMATCH_ALLOWED = 0.01;

    static SnapshotAgreement check(Memory dump, List<GcHeapSnapshot.Node> objects) {
        long found = 0;
        long first = -1;
        for (GcHeapSnapshot.Node n : objects) {
            boolean same;
            try {
                same = (dump.readLong(n.address()) & ~MARK_BITS) == n.methodTable();
            } catch (MissingMemoryException e) {
                same = false;
            }
            if (same) {
                found++;
            } else if (first < 0) {
                first = n.address();
            }
        }
        return new SnapshotAgreement(objects.size(), found, first);
    }

    boolean agrees() {
        return checked - found <= Math.max(1, (long) (checked * MISMATCH_ALLOWED));
    }

    String describe() {
        return String.format(java.util.Locale.ROOT, "%,d of %,d listed objects are in the dump at their address with their MethodTable%s",
                found, checked, firstMismatch < 0 ? "" : String.format(java.util.Locale.ROOT, " (first not: 0x%x)", firstMismatch));
    }
}
