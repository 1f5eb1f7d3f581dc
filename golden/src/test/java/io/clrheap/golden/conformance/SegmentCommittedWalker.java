package io.clrheap.golden.conformance;

import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.memory.Memory;
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
import java.util.Map;
import java.util.Optional;

/**
 * A walker of the segments GC with one mistake: it walks each heap_segment to {@code heap_segment.committed} instead of
 * to the end of its objects ({@code allocated}, or {@code alloc_allocated} for the ephemeral segment). Past the end a
 * segments GC leaves what a compaction moved away, stale object images inside the committed (and even the used) memory
 * (docs/reference/discovery.md section 14); this walker reports them until it meets zeros or memory the dump lacks.
 * Up to each segment's end it is right: the objects there come from the project's own walker. It prints one
 * {@code 0x<address> 0x<mt> <size>} line per object, as {@link NaiveWalker} does.
 *
 * <p>Run: {@code java -cp ... io.clrheap.golden.conformance.SegmentCommittedWalker DUMP.core}
 */
public final class SegmentCommittedWalker {

    private SegmentCommittedWalker() {
    }

    public static void main(String[] args) throws Exception {
        try (ElfCore core = ElfCore.open(Path.of(args[0]))) {
            Target target = new TargetOpener(ProfileLoader.builtIn()).open(core, core.mappedFiles(), Optional.empty());
            DiscoveredHeap heap = new HeapDiscovery(target).discover();
            Memory memory = target.memory();
            StringBuilder out = new StringBuilder();
            new HeapWalker(memory, WalkRules.of(target.layout()), heap, WalkLimits.DEFAULT)
                    .walk((address, mt, size, region) -> out.append(line(address, mt, size)));
            Map<Long, GenerationListWalker.SegmentRange> segments = GenerationListWalker.segments(heap.regionsByAddress());
            for (Region region : heap.regionsByAddress()) {
                GenerationListWalker.SegmentRange segment = segments.remove(region.descriptor());
                if (segment != null) {
                    tail(memory, segment.end(), region.committed(), out); // mistake: objects end at allocated, not committed
                }
            }
            System.out.print(out);
        }
    }

    /** What lies in [from, committed) read as objects, until a null MethodTable or memory the dump does not hold. */
    private static void tail(Memory memory, long from, long committed, StringBuilder out) {
        long at = from;
        try {
            while (Long.compareUnsigned(at, committed) < 0) {
                long mt = memory.readLong(at) & ~7L;
                if (mt == 0) {
                    return;
                }
                int flags = memory.readInt(mt);
                long size = Integer.toUnsignedLong(memory.readInt(mt + 4));
                if (flags < 0) { // HasComponentSize: the low 16 bits are the component size
                    size += (flags & 0xffffL) * Integer.toUnsignedLong(memory.readInt(at + 8));
                }
                out.append(line(at, mt, size));
                at += Math.max((size + 7) & ~7L, 24);
            }
        } catch (RuntimeException unreadable) {
            // the dump holds no more of the segment: the walk of it ends here
        }
    }

    private static String line(long address, long mt, long size) {
        return String.format("0x%x 0x%x %d%n", address, mt, size);
    }
}
