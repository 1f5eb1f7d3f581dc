package io.clrheap.cli.map;

/**
 * A gap between regions too wide to draw to scale on the address strip, drawn as a break of a fixed width instead.
 *
 * @param x     its left edge, in pixels of the strip's width
 * @param width its width, in pixels
 * @param from  where the gap starts: the end of the reservation before it
 * @param to    where it ends: the next region's first object
 */
public record StripBreak(int x, int width, long from, long to) {

    public long bytes() {
        return to - from;
    }
}
