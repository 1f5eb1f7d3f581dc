package io.clrheap.emulator.types;

/**
 * One {@code val_serie_item} of a value-type array's repeating GC descriptor (gcdesc.h, HALF_SIZE_T = 4 bytes each on
 * x64, 8 bytes the item): {@code nptrs} references one after the other, then {@code skip} bytes without references.
 */
public record ValSerieItem(int nptrs, int skip) {
}
