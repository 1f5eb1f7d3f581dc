package io.clrheap.golden.conformance;

import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.memory.Memory;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.source.elf.ElfCore;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetOpener;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A heap walker written the simple way, as the article this project grew from walks a heap — kept as the example of
 * what the conformance suite catches. It finds the regions as a dump walker does, then walks each one naively: it
 * stops at the first null MethodTable (so a live allocation context ends the region), never skips allocation
 * contexts, ignores the frozen heap, and reports every size rounded up to 8 bytes. It prints one
 * {@code 0x<address> 0x<mt> <size>} line per object; {@code clrheap conform --expect objects} checks it.
 *
 * <p>Run: {@code java -cp ... io.clrheap.golden.conformance.NaiveWalker DUMP.core}
 */
public final class NaiveWalker {

    private NaiveWalker() {
    }

    public static void main(String[] args) throws Exception {
        try (ElfCore core = ElfCore.open(Path.of(args[0]))) {
            Target target = new TargetOpener(ProfileLoader.builtIn()).open(core, core.mappedFiles(), Optional.empty());
            DiscoveredHeap heap = new HeapDiscovery(target).discover();
            Memory memory = target.memory();
            StringBuilder out = new StringBuilder();
            for (Region region : heap.regionsByAddress()) {
                if (region.kind() == SegmentKind.FROZEN) {
                    continue; // mistake: the frozen heap holds objects too
                }
                long at = region.mem();
                while (at < region.end()) {
                    long mt = memory.readLong(at) & ~7L;
                    if (mt == 0) {
                        break; // mistake: a live allocation context is zeros, and objects follow it
                    }
                    int flags = memory.readInt(mt);
                    long size = Integer.toUnsignedLong(memory.readInt(mt + 4));
                    if (flags < 0) { // HasComponentSize: the low 16 bits are the component size
                        size += (flags & 0xffffL) * Integer.toUnsignedLong(memory.readInt(at + 8));
                    }
                    size = (size + 7) & ~7L; // mistake: the aligned size is not the size walkers report
                    out.append(String.format("0x%x 0x%x %d%n", at, mt, size));
                    at += Math.max(size, 24);
                }
            }
            System.out.print(out);
        }
    }
}
