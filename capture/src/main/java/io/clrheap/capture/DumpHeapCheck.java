package io.clrheap.capture;

import io.clrheap.walker.DumpSession;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.runtime.TargetException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What the walker's discovery says of a fresh dump, read once: whether the GC was running when it was taken
 * ({@code *gc_structures_invalid_cnt != 0}: the heap is not walkable, the dump is taken again), and its regions, which
 * the snapshot's objects must lie in ({@link SnapshotAgreement}).
 *
 * @param gcInProgress whether the dump was taken during a GC
 * @param regions      the dump's regions in address order; empty when the walker could not find its heap
 * @param unread       why the heap was not found, if it was not (then the snapshot's agreement and golden check judge the dump)
 */
record DumpHeapCheck(boolean gcInProgress, List<Region> regions, Optional<String> unread) {

    static DumpHeapCheck of(Path dump) throws IOException {
        try (DumpSession session = Dumps.open(dump)) {
            DiscoveredHeap heap = session.heap();
            return new DumpHeapCheck(heap.gcInProgress(), heap.regionsByAddress(), Optional.empty());
        } catch (TargetException e) {
            return new DumpHeapCheck(false, List.of(), Optional.of(e.getMessage()));
        }
    }
}
