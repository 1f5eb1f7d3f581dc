package io.clrheap.cli.map;

import io.clrheap.walker.heap.Region;
import java.util.List;

/**
 * The scale of the page's region bars: a bar is as wide as its region's committed bytes at {@code bytesPerPixel}
 * (a power of two, so the page can say "1 px = 64 KiB"), never narrower than {@code minWidth} so that the smallest
 * region stays visible and clickable. The scale is the finest that fits the largest region in one row of
 * {@code rowWidth} pixels and every region in {@code maxRows} such rows: a small heap is drawn large, a heap of
 * hundreds of regions in a few rows.
 *
 * @param bytesPerPixel bytes one pixel of bar width stands for
 * @param minWidth      the narrowest bar, in pixels
 * @param rowWidth      the row the largest region must fit in, in pixels
 * @param maxRows       how many such rows all the bars together may fill
 */
public record BarScale(long bytesPerPixel, int minWidth, int rowWidth, int maxRows) {

    /** The finest scale the page uses: a region of 64 bytes is one pixel wide. */
    static final long FINEST = 64;
    static final int ROW_WIDTH = 960;
    static final int MIN_WIDTH = 6;
    static final int MAX_ROWS = 12;

    public BarScale {
        if (Long.bitCount(bytesPerPixel) != 1 || minWidth < 1 || rowWidth < minWidth || maxRows < 1) {
            throw new IllegalArgumentException("bar scale: bytes per pixel " + bytesPerPixel + " (a power of two), minimum width " + minWidth
                    + ", row width " + rowWidth + ", rows " + maxRows);
        }
    }

    /** The scale of the page's bars for regions of these bar bytes ({@link #barBytes}). */
    public static BarScale fit(List<Long> sizes) {
        return fit(sizes, ROW_WIDTH, MIN_WIDTH, MAX_ROWS);
    }

    static BarScale fit(List<Long> sizes, int rowWidth, int minWidth, int maxRows) {
        long largest = sizes.stream().mapToLong(Long::longValue).max().orElse(0);
        long total = sizes.stream().mapToLong(Long::longValue).sum();
        long bpp = FINEST;
        while (ceil(largest, bpp) > rowWidth || ceil(total, bpp) > (long) rowWidth * maxRows) {
            bpp *= 2;
        }
        return new BarScale(bpp, minWidth, rowWidth, maxRows);
    }

    /**
     * The bytes a region's bar stands for: from its first object to where its memory is committed, at least to where its
     * objects end (a descriptor read mid-change may say less).
     */
    public static long barBytes(Region r) {
        return Math.max(r.end() - r.mem(), r.committed() - r.mem());
    }

    /** The width of a bar for {@code bytes}: bytes / bytesPerPixel rounded to the nearest pixel, at least {@link #minWidth}. */
    public int width(long bytes) {
        return (int) Math.max(minWidth, (bytes + bytesPerPixel / 2) / bytesPerPixel);
    }

    /** What the page says of the scale: {@code 1 px = 64 KiB}. */
    public String label() {
        return "1 px = " + BarScale.size(bytesPerPixel);
    }

    /** A power of two as the page writes it: {@code 512 B}, {@code 64 KiB}, {@code 2 MiB}. */
    static String size(long powerOfTwo) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        long v = powerOfTwo;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v >>= 10;
            u++;
        }
        return v + " " + units[u];
    }

    private static long ceil(long bytes, long per) {
        return (bytes + per - 1) / per;
    }
}
