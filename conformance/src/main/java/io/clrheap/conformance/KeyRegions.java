package io.clrheap.conformance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The answer key's regions.tsv, read whole (a heap has tens of regions): which region, generation and heap an address
 * lies in, so that every difference naming an address says where in the heap it is. A key without regions.tsv (a DAC
 * reference, a key written by hand) or one that cannot be read places nothing: only the wording suffers.
 */
final class KeyRegions {

    static final String FILE = "regions.tsv";
    static final String HEADER = "heap\tgeneration\theap_segment\tstart\tmem\tend\treserved\tflags";
    static final KeyRegions NONE = new KeyRegions(List.of());

    private final List<KeyRegion> regions;

    private KeyRegions(List<KeyRegion> regions) {
        List<KeyRegion> sorted = new ArrayList<>(regions);
        sorted.sort((a, b) -> Long.compareUnsigned(a.start(), b.start()));
        this.regions = List.copyOf(sorted);
    }

    /** The regions of {@code answerDir}'s regions.tsv; none when it has none or it cannot be read. */
    static KeyRegions of(Path answerDir) {
        Path file = answerDir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return NONE;
        }
        List<KeyRegion> found = new ArrayList<>();
        try (KeyTable t = new KeyTable(file, HEADER)) {
            for (KeyTable.Row r = t.next(); r != null; r = t.next()) {
                found.add(new KeyRegion(r.columns()[0], r.columns()[1], t.address(r, 3, "start"), t.address(r, 5, "end"), t.address(r, 6, "reserved")));
            }
        } catch (java.io.IOException e) {
            return NONE;
        }
        return new KeyRegions(found);
    }

    boolean isEmpty() {
        return regions.isEmpty();
    }

    /** The region whose address range holds {@code address}. */
    Optional<KeyRegion> at(long address) {
        // the last region starting at or below the address (regions do not overlap); a walker may name millions of addresses
        int low = 0;
        int high = regions.size() - 1;
        int found = -1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            if (Long.compareUnsigned(regions.get(middle).start(), address) <= 0) {
                found = middle;
                low = middle + 1;
            } else {
                high = middle - 1;
            }
        }
        return found >= 0 && regions.get(found).holds(address) ? Optional.of(regions.get(found)) : Optional.empty();
    }
}
