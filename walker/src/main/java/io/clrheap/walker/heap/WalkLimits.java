package io.clrheap.walker.heap;

/**
 * Caps on what a dump can make the walker do: every chase is bounded by one of these, so a corrupt dump cannot
 * make it loop or allocate in proportion to a corrupt field.
 *
 * @param maxRegions         regions over all heaps (a 64-heap server process has a few thousand)
 * @param maxHeaps           server heaps (MAX_SUPPORTED_HEAPS is 1024 on 64-bit: GCIOT)
 * @param maxThreads         runtime threads
 * @param maxMethodTables    distinct MethodTables remembered per walk
 * @param maxProblemsPerRegion problems reported per region before the rest of the region is skipped
 */
public record WalkLimits(int maxRegions, int maxHeaps, int maxThreads, int maxMethodTables, int maxProblemsPerRegion) {

    public static final WalkLimits DEFAULT = new WalkLimits(1 << 20, 1024, 1 << 20, 1 << 22, 64);

    public WalkLimits {
        if (maxRegions < 1 || maxHeaps < 1 || maxThreads < 1 || maxMethodTables < 16 || maxProblemsPerRegion < 1) {
            throw new IllegalArgumentException(String.format("walk limits must be positive: regions %d, heaps %d, threads %d, MethodTables %d (>= 16), problems per region %d", maxRegions, maxHeaps, maxThreads, maxMethodTables, maxProblemsPerRegion));
        }
    }
}
