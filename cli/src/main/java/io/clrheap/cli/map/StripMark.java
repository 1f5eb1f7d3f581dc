package io.clrheap.cli.map;

/**
 * A region on the address strip.
 *
 * @param mem   the region's first object (the name the page gives it)
 * @param x     its left edge, in pixels of the strip's width
 * @param width its width, in pixels (at least the strip's narrowest mark)
 */
public record StripMark(long mem, int x, int width) {
}
