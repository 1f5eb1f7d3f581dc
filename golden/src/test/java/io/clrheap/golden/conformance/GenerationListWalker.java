package io.clrheap.golden.conformance;

import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.WalkLimits;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetOpener;
import io.clrheap.walker.source.elf.ElfCore;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.walk.WalkRules;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A walker of the segments GC with one mistake: it walks every generation from its start to the end of that
 * generation's {@code heap_segment}, as a walker that follows each generation's {@code start_segment} does. Under the
 * regions GC every region is a heap_segment of its own, so that is right; under the standalone segments GC
 * ({@code libclrgc.so}) gen2, gen1 and gen0 share the heap's ephemeral segment, split at each generation's
 * allocation_start (docs/reference/discovery.md section 14), and the walker reports that segment's objects once per
 * generation in it. Everything else it does right: the objects come from the project's own walker (allocation
 * contexts skipped, the frozen heap walked, sizes as reported), only the ranges they are printed for are wrong.
 * It prints one {@code 0x<address> 0x<mt> <size>} line per object, as {@link NaiveWalker} does.
 *
 * <p>Run: {@code java -cp ... io.clrheap.golden.conformance.GenerationListWalker DUMP.core}
 */
public final class GenerationListWalker {

    private GenerationListWalker() {
    }

    /** One object as the project's walker reports it. */
    record Found(long address, long mt, long size) {
    }

    /** A heap_segment's whole range: the least mem and the greatest end of the regions discovery reports in it. */
    record SegmentRange(long mem, long end) {
        SegmentRange with(Region r) {
            return new SegmentRange(Long.compareUnsigned(r.mem(), mem) < 0 ? r.mem() : mem, Long.compareUnsigned(r.end(), end) > 0 ? r.end() : end);
        }

        boolean contains(long address) {
            return Long.compareUnsigned(address - mem, end - mem) < 0;
        }
    }

    public static void main(String[] args) throws Exception {
        try (ElfCore core = ElfCore.open(Path.of(args[0]))) {
            Target target = new TargetOpener(ProfileLoader.builtIn()).open(core, core.mappedFiles(), Optional.empty());
            DiscoveredHeap heap = new HeapDiscovery(target).discover();
            List<Found> objects = new ArrayList<>();
            new HeapWalker(target.memory(), WalkRules.of(target.layout()), heap, WalkLimits.DEFAULT)
                    .walk((address, mt, size, region) -> objects.add(new Found(address, mt, size)));
            Map<Long, SegmentRange> segments = segments(heap.regionsByAddress());
            StringBuilder out = new StringBuilder();
            for (Region region : heap.regionsByAddress()) {
                SegmentRange walked = segments.get(region.descriptor()); // mistake: the generation's segment, not the generation
                for (Found o : objects) {
                    if (walked.contains(o.address())) {
                        out.append(String.format("0x%x 0x%x %d%n", o.address(), o.mt(), o.size()));
                    }
                }
            }
            System.out.print(out);
        }
    }

    /** The regions discovery reports, grouped by their heap_segment. */
    static Map<Long, SegmentRange> segments(List<Region> regions) {
        Map<Long, SegmentRange> segments = new LinkedHashMap<>();
        for (Region r : regions) {
            segments.merge(r.descriptor(), new SegmentRange(r.mem(), r.end()), (a, b) -> a.with(r));
        }
        return segments;
    }
}
