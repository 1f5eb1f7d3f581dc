package io.clrheap.capture;

import io.clrheap.capture.snapshot.GcHeapSnapshot;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.heap.Region;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether a heap snapshot describes the dump taken just before it: each listed object's MethodTable word (GC mark bits
 * masked) should be in the dump at its address, the snapshot's addresses already moved back to where the objects were
 * before the snapshot's GC compacted them ({@link GcHeapSnapshot}). What still disagrees changed between the dump and
 * the snapshot: objects allocated after the dump, or moved by a GC that ran before the snapshot session began (a busy
 * process). {@link Capture} keeps a dump and snapshot that agree; the Wine tests hold the walk of a Windows minidump to
 * the objects that agree of the snapshot taken after it.
 *
 * @param checked objects of the snapshot looked up in the dump
 * @param found those whose MethodTable word is the listed MethodTable
 * @param changed the others, each with what the dump holds at its address
 */
public record SnapshotAgreement(long checked, long found, List<Changed> changed) {

    /** The GC's mark and pinned bits in the MethodTable word (docs/reference/walker-semantics.md section 7, item 24). */
    private static final long MARK_BITS = 7;
    /** Objects that may disagree for a capture to be taken at once: at most 1 % (or one object). */
    static final double CLEAN = 0.01;
    /** Objects that must agree for a capture to be kept at all when no attempt was clean: 90 %. */
    static final double ENOUGH = 0.90;

    /** An object of the snapshot that the dump does not hold at its address, and what the dump has there. */
    public record Changed(GcHeapSnapshot.Node node, String inDump) {

        /** changed-objects.txt's line: {@code address size mt type: what the dump has}. */
        public String line() {
            return String.format(Locale.ROOT, "0x%x %d 0x%x %s: %s", node.address(), node.size(), node.methodTable(), node.type(), inDump);
        }
    }

    /**
     * Checks each object against the dump's memory and, when the dump's heap could be discovered ({@code regions} not
     * empty), its regions: a MethodTable word beyond a region's allocated end is stale memory (the place an object had
     * before a GC compacted), which a busy process's ProbeNode-like objects of one size fill with the same word.
     *
     * @param regions the dump's regions in address order ({@link io.clrheap.walker.heap.DiscoveredHeap#regionsByAddress}), or empty
     */
    public static SnapshotAgreement check(Memory dump, List<Region> regions, List<GcHeapSnapshot.Node> objects) {
        long found = 0;
        List<Changed> changed = new ArrayList<>();
        long[] starts = regions.stream().mapToLong(Region::mem).toArray();
        for (GcHeapSnapshot.Node n : objects) {
            String inDump;
            if (!regions.isEmpty() && !inSomeRegion(regions, starts, n.address())) {
                changed.add(new Changed(n, "in no region's allocated part in the dump (stale memory a GC left behind, or a region allocated after it)"));
                continue;
            }
            try {
                long word = dump.readLong(n.address());
                if ((word & ~MARK_BITS) == n.methodTable()) {
                    found++;
                    continue;
                }
                inDump = word == 0 ? "zeros in the dump (allocated after it)" : String.format(Locale.ROOT, "the dump has MethodTable word 0x%x there", word);
            } catch (MissingMemoryException e) {
                inDump = "not in the dump's memory";
            }
            changed.add(new Changed(n, inDump));
        }
        return new SnapshotAgreement(objects.size(), found, List.copyOf(changed));
    }

    private static boolean inSomeRegion(List<Region> regions, long[] starts, long address) {
        int lo = 0;
        int hi = starts.length - 1;
        int at = -1;
        while (lo <= hi) { // the last region starting at or below address
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(starts[mid], address) <= 0) {
                at = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return at >= 0 && regions.get(at).contains(address);
    }

    /** The address of the first object not found, or -1. */
    long firstMismatch() {
        return changed.isEmpty() ? -1 : changed.getFirst().node().address();
    }

    /** Few enough disagree (1 %, at least one object allowed) to take this capture at once. */
    public boolean agrees() {
        return checked - found <= Math.max(1, (long) (checked * CLEAN));
    }

    /** Enough agree (90 %) to keep this capture, the others left out of live-objects.txt, when no attempt agreed. */
    boolean enough() {
        return found >= (long) Math.ceil(checked * ENOUGH);
    }

    double fraction() {
        return checked == 0 ? 1 : (double) found / checked;
    }

    public String describe() {
        return String.format(Locale.ROOT, "%,d of %,d listed objects are in the dump at their address with their MethodTable%s",
                found, checked, changed.isEmpty() ? "" : String.format(Locale.ROOT, " (first not: 0x%x, %s)", firstMismatch(), changed.getFirst().inDump()));
    }
}
