package io.clrheap.walker.heap;

/** What a region holds: the generation whose list it hangs from, or frozen (read-only, non-GC) objects. */
public enum SegmentKind {
    GEN0("gen0", 0, true),
    GEN1("gen1", 1, true),
    GEN2("gen2", 2, true),
    LOH("loh", 3, false),
    POH("poh", 4, false),
    /** A read-only segment ({@code heap_segment.flags.readonly}): the frozen (non-GC) heap, at the head of heap 0's gen2 list. */
    FROZEN("frozen", 2, false);

    private final String id;
    private final int generationTableIndex;
    private final boolean smallObjectHeap;

    SegmentKind(String id, int generationTableIndex, boolean smallObjectHeap) {
        this.id = id;
        this.generationTableIndex = generationTableIndex;
        this.smallObjectHeap = smallObjectHeap;
    }

    /** The short name used in reports: gen0, gen1, gen2, loh, poh, frozen. */
    public String id() {
        return id;
    }

    /** The index of the generation table entry whose list holds such regions. */
    public int generationTableIndex() {
        return generationTableIndex;
    }

    /** gen0, gen1, gen2: where allocation contexts live and are skipped. */
    public boolean smallObjectHeap() {
        return smallObjectHeap;
    }

    /**
     * The kind a generation argument names, in SOS's {@code dumpheap -gen} spellings ({@code gen0 gen1 gen2 loh large poh
     * pinned foh frozen}, any case) or as a generation number (0, 1, 2; 3 = LOH, 4 = POH, the generation table's
     * indices); empty for anything else. Frozen is its own kind, never gen2: {@code GC.GetGeneration} of a frozen string
     * literal is int.MaxValue (golden/real/net8-svr's selfreport.txt, {@code lit}).
     */
    public static java.util.Optional<SegmentKind> named(String name) {
        return java.util.Optional.ofNullable(switch (name.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "0", "gen0" -> GEN0;
            case "1", "gen1" -> GEN1;
            case "2", "gen2" -> GEN2;
            case "3", "loh", "large" -> LOH;
            case "4", "poh", "pinned" -> POH;
            case "foh", "frozen" -> FROZEN;
            default -> null;
        });
    }

    /** The kind of a generation table entry's regions (frozen segments are told apart by their flags). */
    public static SegmentKind ofGeneration(int generation) {
        return switch (generation) {
            case 0 -> GEN0;
            case 1 -> GEN1;
            case 2 -> GEN2;
            case 3 -> LOH;
            case 4 -> POH;
            default -> throw new IllegalArgumentException("generation " + generation + " is not 0..4");
        };
    }
}
