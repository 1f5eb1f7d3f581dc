package io.clrheap.conformance;

import java.util.Locale;

/**
 * A row of the answer key's regions.tsv (docs/answer-key.md): a region or frozen segment, its heap and generation.
 *
 * @param heap       the GC heap's number (as regions.tsv writes it)
 * @param generation {@code gen0}, {@code gen1}, {@code gen2}, {@code loh}, {@code poh} or {@code frozen}
 * @param start      the region's first byte
 * @param end        the end of its objects
 * @param reserved   the end of its address range
 */
record KeyRegion(String heap, String generation, long start, long end, long reserved) {

    /** Whether {@code address} lies in the region's address range (to {@code reserved}: an extra object past the objects' end is still in it). */
    boolean holds(long address) {
        return Long.compareUnsigned(start, address) <= 0 && Long.compareUnsigned(address, reserved) < 0;
    }

    /** {@code heap 0 gen2 region [0x7e2000000000, 0x7e200001e688)}: the range its objects take. */
    String describe() {
        return String.format(Locale.ROOT, "heap %s %s %s [0x%x, 0x%x)", heap, generation, generation.equals("frozen") ? "segment" : "region", start, end);
    }
}
