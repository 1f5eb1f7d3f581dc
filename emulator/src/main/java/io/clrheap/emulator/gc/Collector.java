package io.clrheap.emulator.gc;

import io.clrheap.emulator.truth.GroundTruth;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A collection, as {@link HeapBuilder} runs it between allocations: the condemned generations' regions swept (dead
 * objects become free objects), empty regions released, the survivors' regions promoted in place, a fresh gen0 region
 * per heap.
 */
final class Collector {

    private final HeapBuilder heaps;
    private final GroundTruth truth;

    Collector(HeapBuilder heaps, GroundTruth truth) {
        this.heaps = heaps;
        this.truth = truth;
    }

    /**
     * A collection of generations 0..{@code condemned} (Step.Collect): every allocation context must have been given
     * up. Dying objects become free objects, merged with free neighbours (an LOH object's padding stays with it while
     * it lives); nothing follows a region's last survivor (its end moves back to it); regions left with no survivor
     * are released, as the GC returns them to its free list (each generation keeps one); the survivors' regions are
     * promoted in place; each heap gets a fresh gen0 region.
     */
    void collect(int condemned) {
        List<GroundTruth.Run> replaced = new ArrayList<>();
        for (Heap heap : heaps.heaps()) {
            for (int g = 0; g < 5; g++) {
                boolean swept = g <= condemned || (condemned == 2 && g >= HeapBuilder.LOH);
                if (swept) {
                    List<RegionState> list = heap.generations.get(g);
                    for (RegionState r : list) {
                        if (!r.frozen && !r.clean()) {
                            sweep(r, replaced);
                        }
                    }
                    if (heaps.segmented() == null) {
                        releaseEmpty(list);
                    }
                }
            }
            for (int g = Math.min(condemned, 1); g >= 0; g--) {
                List<RegionState> promoted = heap.generations.get(g);
                for (RegionState r : promoted) {
                    r.generation = g + 1;
                    for (GroundTruth.Run run : r.runs) {
                        run.generation = g + 1;
                    }
                }
                heap.generations.get(g + 1).addAll(promoted);
                if (heaps.segmented() == null) {
                    releaseEmpty(heap.generations.get(g + 1));
                }
                promoted.clear();
            }
            heaps.startGen0AfterCollection(heap);
        }
        truth.removeRuns(replaced);
    }

    /** Releases a generation's empty regions (mem == end), keeping its frozen segments and at least one region. */
    private static void releaseEmpty(List<RegionState> list) {
        List<RegionState> kept = new ArrayList<>();
        for (RegionState r : list) {
            if (r.frozen || r.cursor != r.mem) {
                kept.add(r);
            }
        }
        if (kept.stream().noneMatch(r -> !r.frozen)) {
            list.stream().filter(r -> !r.frozen).findFirst().ifPresent(kept::add);
        }
        if (kept.size() != list.size()) {
            list.clear();
            list.addAll(kept);
        }
    }

    /**
     * Rewrites a region's objects as one run: survivors kept in place, dead objects and free gaps between survivors
     * turned into free objects; the region ends after its last survivor (docs/reference/walker-semantics.md 1.4: no free object
     * after a region's last object). The runs it replaces are added to {@code replaced}.
     */
    private void sweep(RegionState region, List<GroundTruth.Run> replaced) {
        List<GroundTruth.Run> old = new ArrayList<>(region.runs);
        old.sort(Comparator.comparingLong(r -> r.start));
        GroundTruth.Run run = truth.startRun(region.mem, region.heap, region.generation);
        long freeStart = -1;   // start of the free span being gathered, -1 when none
        long padding = -1;     // a padding object waiting to see whether the LOH object after it lives
        long cursor = region.mem;
        for (GroundTruth.Run r : old) {
            if (r.start != cursor) {
                throw new IllegalStateException(String.format("region 0x%x: a gap at 0x%x before a collection (a live allocation context?)",
                        region.mem, cursor));
            }
            GroundTruth.RunCursor c = truth.cursor(r);
            while (c.next()) {
                GroundTruth.Kind kind = truth.type(c.type).kind();
                if (region.startObject && c.address == region.mem) {
                    // a segments GC's generation start object stays where allocation_start points
                    heaps.writeFree(run, c.size, GroundTruth.Kind.FREE);
                    cursor = c.address + heaps.step(c.size);
                    continue;
                }
                if (kind == GroundTruth.Kind.OBJECT && !c.dies) {
                    long freeEnd = padding != -1 ? padding : c.address;
                    if (freeStart != -1 && freeStart < freeEnd) {
                        heaps.writeFree(run, freeEnd - freeStart, GroundTruth.Kind.FREE);
                    }
                    if (padding != -1) {
                        heaps.writeFree(run, c.address - padding, GroundTruth.Kind.PADDING);
                    }
                    truth.append(run, c.type, c.components, false);
                    freeStart = -1;
                    padding = -1;
                } else if (kind == GroundTruth.Kind.PADDING && padding == -1) {
                    padding = c.address;
                } else {
                    if (freeStart == -1) {
                        freeStart = padding != -1 ? padding : c.address;
                    }
                    padding = -1;
                }
                cursor = c.address + heaps.step(c.size);
            }
        }
        if (run.end != (freeStart != -1 ? freeStart : padding != -1 ? padding : cursor)) {
            throw new IllegalStateException(String.format("region 0x%x: swept to 0x%x, out of step with its objects", region.mem, run.end));
        }
        replaced.addAll(old);
        region.runs.clear();
        region.runs.add(run);
        region.current = run;
        region.cursor = run.end; // the dead tail is end-of-region space now, tracked by allocated alone
        region.swept = true;
    }
}
