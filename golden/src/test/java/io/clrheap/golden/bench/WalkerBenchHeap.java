package io.clrheap.golden.bench;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.Scenarios;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.memory.Memory;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.source.elf.MappedFile;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetException;
import io.clrheap.walker.runtime.TargetOpener;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.heap.WalkLimits;
import io.clrheap.walker.walk.WalkRules;
import java.util.Optional;

/**
 * The heap the walker benchmark walks: the built-in {@code large} scenario (every object kind, every edge case, 2
 * server heaps) with 4.2 times its objects, so that it holds the 20 million objects at least.
 */
final class WalkerBenchHeap {

    static final long MIN_OBJECTS = 20_000_000L;

    private WalkerBenchHeap() {
    }

    static Scenario scenario() {
        return Scenarios.named("large").orElseThrow().toBuilder().name("walker-bench")
                .description("the `large` scenario with 4.2 × its objects: every object kind and edge case, 2 server heaps, 20 % garbage")
                .objects(14_000_000, 3_400_000, 5_000_000, 500, 17_000).frozenStrings(17_000).build();
    }

    /** The walker of {@code memory}, its heap found by discovery as {@code clrheap walk} finds it. */
    static HeapWalker walker(Memory memory, java.util.List<MappedFile> files) throws TargetException {
        Target target = new TargetOpener(ProfileLoader.builtIn()).open(memory, files, Optional.empty());
        DiscoveredHeap heap = new HeapDiscovery(target).discover();
        if (!heap.problems().isEmpty()) {
            throw new IllegalStateException("discovery met problems: " + heap.problems());
        }
        return new HeapWalker(target.memory(), WalkRules.of(target.layout()), heap, WalkLimits.DEFAULT);
    }

    /** The layout the target opened from {@code memory} is bound to (the GC descriptors' flags and offsets). */
    static io.clrheap.layout.RuntimeLayout layout(Memory memory, java.util.List<MappedFile> files) throws TargetException {
        return new TargetOpener(ProfileLoader.builtIn()).open(memory, files, Optional.empty()).layout();
    }

    /**
     * The parts of the regions' {@code [mem, end)} the memory holds, as [start0, end0, start1, end1, …]: what the raw
     * scan reads. A dump leaves out memory the process never wrote (the zero bodies of large arrays, say); the walk
     * does not read those either.
     */
    static long[] presentParts(java.util.List<io.clrheap.walker.heap.Region> regions, Memory memory) {
        java.util.List<io.clrheap.memory.MemoryRange> ranges = memory.ranges();
        long[] parts = new long[0];
        int n = 0;
        for (var r : regions) {
            for (var range : ranges) {
                long start = Math.max(r.mem(), range.start());
                long end = Math.min(r.end(), range.start() + range.length()) & ~7L;
                if (start < end) {
                    if (n + 2 > parts.length) {
                        parts = java.util.Arrays.copyOf(parts, Math.max(16, parts.length * 2));
                    }
                    parts[n++] = start;
                    parts[n++] = end;
                }
            }
        }
        return java.util.Arrays.copyOf(parts, n);
    }

    static long bytes(long[] parts) {
        long total = 0;
        for (int i = 0; i < parts.length; i += 2) {
            total += parts[i + 1] - parts[i];
        }
        return total;
    }

    static HeapWalker walker(EmulatedRuntime runtime) throws TargetException {
        return walker(runtime.memory(), runtime.mappings().stream()
                .map(m -> new MappedFile(m.start(), m.end(), m.fileOffset(), m.path())).toList());
    }
}
