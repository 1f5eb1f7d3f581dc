package io.clrheap.walker.map;

/**
 * A type of the map's legend: every MethodTable the walk met, free objects included.
 *
 * @param index       its index in {@link HeapMap#types()}: rank by total bytes, largest first (ties: first seen by address)
 * @param methodTable its MethodTable
 * @param name        the name reports print: the dump's or {@code --names}' name, {@code Free}, or {@code Unknown (MethodTable: 0x…)}
 * @param count       its objects
 * @param bytes       their unaligned bytes
 * @param colour      {@code #rrggbb}: grey for free objects, else by rank from a fixed palette, then from the name
 * @param free        whether it is the free-object MethodTable
 */
public record MapType(int index, long methodTable, String name, long count, long bytes, String colour, boolean free) {
}
