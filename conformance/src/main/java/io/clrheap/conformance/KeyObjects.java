package io.clrheap.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The answer key's words for the objects a difference names: from objects.tsv the type, size, heap and generation,
 * from regions.tsv the region ({@code System.String, 22 bytes, heap 0 gen2 region [0x7e2000000000, 0x7e200001e688)});
 * for an address where no object starts, the object it lies inside, if any, and its region. Read in one pass that
 * stops once every address is described; a key that cannot be read describes nothing (only the wording suffers).
 */
final class KeyObjects {

    static final String HEADER = "address\tmt\tsize\tgeneration\theap\tkind\ttype";

    private KeyObjects() {
    }

    /** Each of {@code named} described; empty when objects.tsv cannot be read. */
    static Map<Long, String> describe(Path answerDir, KeyRegions regions, Set<Long> named) {
        Map<Long, String> found = new HashMap<>();
        Path file = answerDir.resolve("objects.tsv");
        if (named.isEmpty() || !Files.isRegularFile(file)) {
            return found;
        }
        TreeSet<Long> unplaced = new TreeSet<>(Long::compareUnsigned);
        unplaced.addAll(named);
        Map<Long, String> inside = new HashMap<>();
        try (KeyTable t = new KeyTable(file, HEADER)) {
            KeyTable.Row r;
            while ((r = t.next()) != null && found.size() + inside.size() < named.size()) {
                long address = t.address(r, 0, "address");
                long size = t.number(r, 2, "size");
                String object = object(r, address, size, regions);
                if (named.contains(address)) {
                    found.put(address, object);
                }
                if (Long.compareUnsigned(address + size, address) < 0) {
                    continue;
                }
                // an address the walker named inside this object: a walker that steps wrong lands in the middle of one
                for (Long within : unplaced.subSet(address, false, address + size, false)) {
                    inside.put(within, String.format(Locale.ROOT, "no object starts there; it lies inside 0x%x, %s", address, object));
                }
                unplaced.subSet(address, true, address + size, false).clear();
            }
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
        for (Long address : named) {
            if (!found.containsKey(address)) {
                found.put(address, inside.getOrDefault(address, "no object starts there" + regions.at(address)
                        .map(g -> ", in " + g.describe()).orElse(regions.isEmpty() ? "" : ", in no region of the heap")));
            }
        }
        return found;
    }

    /** {@code System.String, 22 bytes, heap 0 gen2 region [a, b)}; without regions.tsv the heap and generation of objects.tsv. */
    private static String object(KeyTable.Row r, long address, long size, KeyRegions regions) {
        String[] c = r.columns();
        String where = regions.at(address).map(KeyRegion::describe).orElse("heap " + c[4] + " " + c[3]);
        return String.format(Locale.ROOT, "%s, %,d bytes, %s", c[6], size, where);
    }

    /** The roots that point at the named objects, from roots.tsv: which kind of root a walker took or left out. */
    static Map<Long, String> roots(Path file, Set<Long> named) {
        Map<Long, String> found = new HashMap<>();
        if (named.isEmpty() || !Files.isRegularFile(file)) {
            return found;
        }
        try (KeyTable t = new KeyTable(file, GraphComparison.ROOTS_HEADER)) {
            KeyTable.Row r;
            while ((r = t.next()) != null) {
                long target = t.address(r, 2, "object");
                if (named.contains(target)) {
                    String root = String.format(Locale.ROOT, "the %s root %s%s points at it", r.columns()[0], r.columns()[1],
                            r.columns()[4].equals("-") ? "" : " of thread " + r.columns()[4]);
                    found.merge(target, root, (a, b) -> a + ", " + b);
                }
            }
        } catch (IOException e) {
            return Map.of();
        }
        return found;
    }
}
