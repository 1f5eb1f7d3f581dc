package io.clrheap.walker.sos;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.heap.SubHeap;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * SOS's {@code eeheap -gc} as it prints a regions heap (docs/reports.md), and a segments one (a standalone libclrgc.so:
 * the generations' starts, then one row per segment): the one text both {@code walk --eeheap} and the answer key's
 * {@code eeheap.txt} are, built from what each of them knows of the heap.
 *
 * <p>The rules are SOS's and ClrMD's (dotnet/diagnostics src/Microsoft.Diagnostics.ExtensionCommands/EEHeapCommand.cs,
 * PrintGCHeap; microsoft/clrmd ClrHeapHelpers.CreateSegment):
 * <ul>
 *   <li>per heap a "Small object heap" whose regions are grouped under "generation 0:", "1:", "2:", each group by begin
 *       address; then "NonGC heap" (read-only segments, only when there are some), "Large object heap" (always),
 *       "Pinned object heap" (only when there are some); under server GC a "Heap N (gc_heap)" line first;</li>
 *   <li>a row is {@code segment begin allocated committed} as 16 hex digits, then the allocated size
 *       ({@code allocated - begin}) and the committed size, as {@code 0x<hex> (<decimal>)}, a size of 0 printed empty;
 *       columns right-aligned, one space apart, sizes at least 15 wide;</li>
 *   <li>the committed range of a region starts 32 bytes (4 pointers, ClrMD's SizeOfPlugAndGap) before its begin;</li>
 *   <li>the totals "GC Allocated Heap Size" and "GC Committed Heap Size" sum those two sizes over every segment.</li>
 * </ul>
 */
public final class SosEeHeap {

    /** ClrMD's SizeOfPlugAndGap on 64-bit: a region's committed range is taken to start this far before its first object. */
    static final long PLUG_AND_GAP = 32;

    /** One segment (region) as eeheap lists it; {@code committed} 0 when the source does not know it. */
    public record Segment(long address, SegmentKind kind, long begin, long allocated, long committed) {

        public long allocatedSize() {
            return allocated - begin;
        }

        public long committedSize() {
            return committed == 0 ? 0 : committed - (begin - PLUG_AND_GAP);
        }

        /** The record's components, the addresses in hex. */
        @Override
        public String toString() {
            return String.format("Segment[address=0x%x, kind=%s, begin=0x%x, allocated=0x%x, committed=0x%x]", address, kind, begin, allocated, committed);
        }
    }

    /**
     * One GC heap: its number, its {@code gc_heap} (0 under workstation GC), its segments in any order, and, for a
     * segments GC, its generations' starts (null under regions).
     */
    public record Heap(int index, long gcHeap, List<Segment> segments, GenerationStarts starts) {

        /** A regions heap. */
        public Heap(int index, long gcHeap, List<Segment> segments) {
            this(index, gcHeap, segments, null);
        }

        /** The record's components, the {@code gc_heap} in hex. */
        @Override
        public String toString() {
            return String.format("Heap[index=%d, gcHeap=0x%x, segments=%s]", index, gcHeap, segments);
        }
    }

    /**
     * A segments GC's generation starts (each generation's {@code allocation_start}: gen0, gen1, gen2, LOH, POH) and its
     * ephemeral segment's allocation context (generation 0's, {@code [start, end)}; both 0 when none), which SOS prints
     * before the segments.
     */
    public record GenerationStarts(long[] allocationStarts, long contextStart, long contextEnd) {

        @Override
        public String toString() {
            return String.format("GenerationStarts[%s, context 0x%x..0x%x]", java.util.Arrays.stream(allocationStarts)
                    .mapToObj(a -> String.format("0x%x", a)).toList(), contextStart, contextEnd);
        }
    }

    private final boolean server;
    private final List<Heap> heaps;

    public SosEeHeap(boolean server, List<Heap> heaps) {
        this.server = server;
        this.heaps = List.copyOf(heaps);
    }

    /** The report of a discovered regions heap: every region of every heap, as discovery found it. */
    public static SosEeHeap of(DiscoveredHeap discovered, boolean server) {
        return of(discovered, server, h -> null);
    }

    /**
     * The report of a discovered heap; {@code segmentsStarts} gives a segments GC's generation starts for a heap (null
     * under regions). A segments GC's ephemeral segment, which discovery splits at the generation starts, is one row
     * again, as SOS lists segments (its committed memory counted once).
     */
    public static SosEeHeap of(DiscoveredHeap discovered, boolean server, java.util.function.Function<SubHeap, GenerationStarts> segmentsStarts) {
        List<Heap> heaps = new ArrayList<>();
        for (SubHeap h : discovered.heaps()) {
            List<Segment> parts = new ArrayList<>();
            for (Region r : h.regions()) {
                parts.add(new Segment(r.descriptor(), r.kind(), r.mem(), r.end(), r.committed()));
            }
            heaps.add(heap(h.index(), h.gcHeap(), parts, segmentsStarts.apply(h)));
        }
        return new SosEeHeap(server, heaps);
    }

    /**
     * A heap from its regions, or (a segments GC, {@code starts} not null) from the parts of its segments: the parts of
     * one small-object heap_segment (the ephemeral segment split at the generation starts) joined into the one row SOS
     * lists, its committed memory counted once.
     */
    public static Heap heap(int index, long gcHeap, List<Segment> parts, GenerationStarts starts) {
        if (starts == null) {
            return new Heap(index, gcHeap, parts, null);
        }
        java.util.Map<Long, Segment> soh = new java.util.LinkedHashMap<>();
        List<Segment> segments = new ArrayList<>();
        for (Segment s : parts) {
            if (s.kind().smallObjectHeap()) {
                soh.merge(s.address(), new Segment(s.address(), SegmentKind.GEN2, s.begin(), s.allocated(), s.committed()),
                        (a, b) -> new Segment(a.address(), SegmentKind.GEN2, min(a.begin(), b.begin()), max(a.allocated(), b.allocated()), a.committed()));
            } else {
                segments.add(s);
            }
        }
        segments.addAll(soh.values());
        return new Heap(index, gcHeap, segments, starts);
    }

    private static long min(long a, long b) {
        return Long.compareUnsigned(a, b) <= 0 ? a : b;
    }

    private static long max(long a, long b) {
        return Long.compareUnsigned(a, b) >= 0 ? a : b;
    }

    public long allocatedTotal() {
        return heaps.stream().flatMap(h -> h.segments().stream()).mapToLong(Segment::allocatedSize).sum();
    }

    /** Whether every segment's {@code heap_segment.committed} is known (the in-process path is not told it). */
    public boolean committedKnown() {
        return heaps.stream().flatMap(h -> h.segments().stream()).allMatch(s -> s.committed() != 0);
    }

    public long committedTotal() {
        return heaps.stream().flatMap(h -> h.segments().stream()).mapToLong(Segment::committedSize).sum();
    }

    /** The report's text, every line ending in {@code \n}. */
    public String text() {
        int widest = 15;
        for (Heap h : heaps) {
            for (Segment s : h.segments()) {
                widest = Math.max(widest, size(s.committedSize()).length());
            }
        }
        int sizeWidth = widest;
        StringBuilder out = new StringBuilder();
        out.append("=".repeat(40)).append('\n');
        out.append("Number of GC Heaps: ").append(heaps.size()).append('\n');
        out.append("-".repeat(40)).append('\n');
        for (Heap h : heaps) {
            if (server) {
                out.append(String.format(Locale.ROOT, "Heap %d (%016x)\n", h.index(), h.gcHeap()));
            }
            GenerationStarts starts = h.starts();
            if (starts != null) {
                // segments: the generations' starts, then one table of segments (EEHeapCommand.PrintGCHeap, !HasRegions)
                for (int g = 0; g <= 2; g++) {
                    out.append(String.format(Locale.ROOT, "generation %d starts at %x\n", g, starts.allocationStarts()[g]));
                }
                out.append("ephemeral segment allocation context: ").append(starts.contextEnd() != starts.contextStart()
                        // SOS prints the end in decimal after 0x: reproduced (docs/reference/walker-semantics.md 6.4)
                        ? String.format(Locale.ROOT, "(0x%x, 0x%s)", starts.contextStart(), Long.toUnsignedString(starts.contextEnd())) : "none").append('\n');
            }
            out.append("Small object heap\n");
            header(out, sizeWidth);
            if (starts != null) {
                sorted(h, SegmentKind.GEN2).forEach(s -> row(out, s, sizeWidth));
            }
            for (int generation = 0; generation <= 2 && starts == null; generation++) {
                List<Segment> group = sorted(h, SegmentKind.ofGeneration(generation));
                if (!group.isEmpty()) {
                    out.append("generation ").append(generation).append(":\n");
                    group.forEach(s -> row(out, s, sizeWidth));
                }
            }
            List<Segment> frozen = sorted(h, SegmentKind.FROZEN);
            if (!frozen.isEmpty()) {
                out.append("NonGC heap\n");
                header(out, sizeWidth);
                frozen.forEach(s -> row(out, s, sizeWidth));
            }
            out.append(starts == null ? "Large object heap\n" : String.format(Locale.ROOT, "Large object heap starts at %x\n", starts.allocationStarts()[3]));
            header(out, sizeWidth);
            sorted(h, SegmentKind.LOH).forEach(s -> row(out, s, sizeWidth));
            List<Segment> pinned = sorted(h, SegmentKind.POH);
            if (!pinned.isEmpty()) {
                out.append(starts == null ? "Pinned object heap\n" : String.format(Locale.ROOT, "Pinned object heap starts at %x\n", starts.allocationStarts()[4]));
                header(out, sizeWidth);
                pinned.forEach(s -> row(out, s, sizeWidth));
            }
            out.append("-".repeat(30)).append('\n');
        }
        out.append("GC Allocated Heap Size:    Size: ").append(size(allocatedTotal())).append(" bytes.\n");
        if (committedKnown()) {
            out.append("GC Committed Heap Size:    Size: ").append(size(committedTotal())).append(" bytes.\n");
        } else {
            // the in-process path is told mem, allocated and reserved only: a sum without committed would be wrong
            out.append("GC Committed Heap Size:    unknown (heap_segment.committed not known for every segment)\n");
        }
        return out.toString();
    }

    /** The same facts as JSON (docs/schemas/eeheap.schema.json). */
    public ObjectNode json() {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("server", server);
        ArrayNode list = root.putArray("heaps");
        for (Heap h : heaps) {
            ObjectNode hj = list.addObject();
            hj.put("index", h.index());
            hj.put("gcHeap", hex(h.gcHeap()));
            ArrayNode segments = hj.putArray("segments");
            for (SegmentKind kind : List.of(SegmentKind.GEN0, SegmentKind.GEN1, SegmentKind.GEN2, SegmentKind.FROZEN, SegmentKind.LOH, SegmentKind.POH)) {
                for (Segment s : sorted(h, kind)) {
                    ObjectNode sj = segments.addObject();
                    sj.put("kind", s.kind().id());
                    sj.put("segment", hex(s.address()));
                    sj.put("begin", hex(s.begin()));
                    sj.put("allocated", hex(s.allocated()));
                    sj.put("committed", hex(s.committed()));
                    sj.put("allocatedSize", s.allocatedSize());
                    sj.put("committedSize", s.committedSize());
                }
            }
        }
        root.put("allocatedTotal", allocatedTotal());
        if (committedKnown()) {
            root.put("committedTotal", committedTotal());
        } else {
            root.putNull("committedTotal");
        }
        return root;
    }

    private static List<Segment> sorted(Heap h, SegmentKind kind) {
        List<Segment> group = new ArrayList<>();
        for (Segment s : h.segments()) {
            if (s.kind() == kind) {
                group.add(s);
            }
        }
        group.sort(Comparator.comparing(Segment::begin, Long::compareUnsigned));
        return group;
    }

    private static void header(StringBuilder out, int sizeWidth) {
        out.append(String.format(Locale.ROOT, "%16s %16s %16s %16s %" + sizeWidth + "s %" + sizeWidth + "s\n",
                "segment", "begin", "allocated", "committed", "allocated size", "committed size"));
    }

    private static void row(StringBuilder out, Segment s, int sizeWidth) {
        out.append(String.format(Locale.ROOT, "%016x %016x %016x %016x %" + sizeWidth + "s %" + sizeWidth + "s\n",
                s.address(), s.begin(), s.allocated(), s.committed(), size(s.allocatedSize()), size(s.committedSize())));
    }

    /** SOS's FormatMemorySize: {@code 0x<hex> (<decimal>)}, empty for 0. */
    static String size(long bytes) {
        return bytes == 0 ? "" : "0x" + Long.toHexString(bytes) + " (" + Long.toUnsignedString(bytes) + ")";
    }

    private static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }
}
