package io.clrheap.cli.map;

import io.clrheap.walker.heap.Region;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The GC's address space as one strip: from the lowest region's first object to the end of the highest reservation,
 * every region placed at its address ({@code [mem, reserved)}), gaps between regions to scale; a gap wider than all
 * the regions together (the frozen segments' distance from the GC's range, a terabyte away) is drawn as a break of
 * {@link #BREAK_WIDTH} pixels instead, so that the regions are not squeezed to nothing by it.
 *
 * @param width   the strip's width in pixels (the page stretches it to the width it has)
 * @param lowest  the lowest region's first object
 * @param highest the end of the highest reservation
 * @param marks   a mark per region, in address order
 * @param breaks  the gaps drawn as breaks, in address order
 */
public record AddressStrip(int width, long lowest, long highest, List<StripMark> marks, List<StripBreak> breaks) {

    static final int WIDTH = 1000;
    static final int BREAK_WIDTH = 16;
    static final int MIN_MARK = 2;

    public AddressStrip {
        marks = List.copyOf(marks);
        breaks = List.copyOf(breaks);
    }

    /** Where a region reaches in the address space: its reservation, or further if its other bounds say so. */
    static long reach(Region r) {
        return Math.max(r.reserved(), Math.max(r.committed(), r.end()));
    }

    /** The strip of {@code regions} (in any order), {@link #WIDTH} pixels wide. */
    public static AddressStrip of(List<Region> regions) {
        return of(regions, WIDTH);
    }

    static AddressStrip of(List<Region> regions, int width) {
        List<Region> sorted = regions.stream().sorted(Comparator.comparing(Region::mem, Long::compareUnsigned)).toList();
        if (sorted.isEmpty()) {
            return new AddressStrip(width, 0, 0, List.of(), List.of());
        }
        long extents = sorted.stream().mapToLong(r -> reach(r) - r.mem()).sum();
        // first pass: the gaps to break, and the bytes drawn to scale
        List<long[]> gaps = new ArrayList<>();
        long top = reach(sorted.getFirst());
        for (Region r : sorted.subList(1, sorted.size())) {
            if (r.mem() - top > Math.max(extents, 1)) {
                gaps.add(new long[] {top, r.mem()});
            }
            top = Math.max(top, reach(r));
        }
        long lowest = sorted.getFirst().mem();
        long highest = top;
        long broken = gaps.stream().mapToLong(g -> g[1] - g[0]).sum();
        int breakWidth = gaps.isEmpty() ? 0 : Math.min(BREAK_WIDTH, width / (4 * gaps.size()));
        double perByte = (width - (double) breakWidth * gaps.size()) / Math.max(1, highest - lowest - broken);
        // second pass: x of each region and break; an address's x is its bytes to scale from the lowest plus the breaks before it
        List<StripMark> marks = new ArrayList<>();
        List<StripBreak> breaks = new ArrayList<>();
        long skipped = 0;
        int gap = 0;
        for (Region r : sorted) {
            while (gap < gaps.size() && gaps.get(gap)[1] <= r.mem()) {
                long[] g = gaps.get(gap);
                breaks.add(new StripBreak((int) Math.floor((g[0] - lowest - skipped) * perByte) + gap * breakWidth, breakWidth, g[0], g[1]));
                skipped += g[1] - g[0];
                gap++;
            }
            int x = (int) Math.floor((r.mem() - lowest - skipped) * perByte) + gap * breakWidth;
            int w = (int) Math.max(MIN_MARK, Math.round((reach(r) - r.mem()) * perByte));
            x = Math.min(x, width - MIN_MARK);
            marks.add(new StripMark(r.mem(), x, Math.min(w, width - x)));
        }
        return new AddressStrip(width, lowest, highest, marks, breaks);
    }
}
