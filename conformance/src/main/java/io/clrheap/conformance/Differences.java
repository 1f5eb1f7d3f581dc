package io.clrheap.conformance;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The differences of one comparison as they are found: every one counted by its kind (and, when it names an address,
 * by the generation the key's regions.tsv places it in), the first {@link #SHOWN_PER_KIND} of each kind kept
 * ({@link #SHOWN_ALONE} when all are of one kind: then there is no other kind to make room for). Kept
 * differences that name an object are described once the comparison is done — its type, size, heap, generation and
 * region from objects.tsv and regions.tsv, for the live set the roots of roots.tsv pointing at it — from one more
 * pass over the key's files, so a comparison of millions of objects holds no more than a few lines.
 */
final class Differences {

    /** Differences shown per kind and fixture. */
    static final int SHOWN_PER_KIND = 5;
    /** Differences shown when all of a fixture's are of one kind. */
    static final int SHOWN_ALONE = 10;

    /** A kept difference: its text around where the object's description goes ({@code address} null: none). */
    private record Pending(Long address, String before, String after) {
    }

    /** One kind's differences so far. */
    private static final class Tally {
        private final int order;
        private long count;
        private final Map<String, Long> generations = new HashMap<>();
        private final List<Pending> shown = new ArrayList<>();
        /** Unparsable lines: whether the lines shown describe them all. */
        private boolean described = true;

        Tally(int order) {
            this.order = order;
        }
    }

    private final KeyRegions regions;
    private final Map<DifferenceKind, Tally> tallies = new LinkedHashMap<>();
    private long count;

    /** Differences that name no address the key can place (dumpheap -stat, eeheap and gchandles text). */
    Differences() {
        this(KeyRegions.NONE);
    }

    /** Differences whose addresses are placed in {@code regions}. */
    Differences(KeyRegions regions) {
        this.regions = regions;
    }

    /** A difference that names no object. */
    void add(DifferenceKind kind, String text) {
        Tally t = tally(kind);
        t.count++;
        count++;
        if (t.shown.size() < SHOWN_ALONE) {
            t.shown.add(new Pending(null, text, ""));
        }
    }

    /**
     * A difference naming the object or address {@code address}: its line is {@code before}, the object's description
     * in parentheses, {@code after}. {@code generation} is the key's generation of the object when the caller has it
     * (used when the key has no regions.tsv), else null.
     */
    void add(DifferenceKind kind, long address, String generation, String before, String after) {
        Tally t = tally(kind);
        t.count++;
        count++;
        String where = regions.at(address).map(KeyRegion::generation).orElse(regions.isEmpty() ? generation : "no region");
        if (where != null) {
            t.generations.merge(where, 1L, Long::sum);
        }
        if (t.shown.size() < SHOWN_ALONE) {
            t.shown.add(new Pending(address, before, after));
        }
    }

    /** The lines of the walker's output that did not parse, each an unparsable line. */
    void addProblems(ParseProblems problems) {
        if (problems.lines() == 0) {
            return;
        }
        Tally t = tally(DifferenceKind.UNPARSABLE_LINE);
        t.count += problems.lines();
        count += problems.lines();
        t.described &= problems.complete() && t.shown.size() + problems.size() <= SHOWN_ALONE;
        for (String p : problems) {
            if (t.shown.size() < SHOWN_ALONE) {
                t.shown.add(new Pending(null, p, ""));
            }
        }
    }

    private Tally tally(DifferenceKind kind) {
        return tallies.computeIfAbsent(kind, k -> new Tally(tallies.size()));
    }

    /** The outcome, the objects named left undescribed. */
    Comparison.Result result() {
        return result(Map.of(), Map.of());
    }

    /** The outcome, each kept object described from {@code answerDir}'s objects.tsv (and, with {@code roots}, roots.tsv). */
    Comparison.Result result(Path answerDir, boolean roots) {
        Set<Long> named = new HashSet<>();
        tallies.values().forEach(t -> t.shown.stream().filter(p -> p.address() != null).forEach(p -> named.add(p.address())));
        Map<Long, String> objects = KeyObjects.describe(answerDir, regions, named);
        Map<Long, String> pointedAt = roots ? KeyObjects.roots(answerDir.resolve(GraphComparison.ROOTS), named) : Map.of();
        return result(objects, pointedAt);
    }

    private Comparison.Result result(Map<Long, String> objects, Map<Long, String> pointedAt) {
        List<DifferencesOfKind> kinds = new ArrayList<>();
        int shown = tallies.size() == 1 ? SHOWN_ALONE : SHOWN_PER_KIND;
        tallies.entrySet().stream()
                // lines that do not parse first (they may explain the rest), then the most frequent kind, then the first met
                .sorted(Comparator.<Map.Entry<DifferenceKind, Tally>>comparingInt(e -> e.getKey() == DifferenceKind.UNPARSABLE_LINE ? 0 : 1)
                        .thenComparing(e -> -e.getValue().count).thenComparingInt(e -> e.getValue().order))
                .forEach(e -> {
                    List<String> lines = new ArrayList<>();
                    for (Pending p : e.getValue().shown.subList(0, Math.min(shown, e.getValue().shown.size()))) {
                        if (p.address() == null) {
                            lines.add(p.before());
                            continue;
                        }
                        String what = objects.containsKey(p.address()) ? " (" + objects.get(p.address()) + ")" : "";
                        String root = pointedAt.containsKey(p.address()) ? "; roots.tsv: " + pointedAt.get(p.address()) : "";
                        lines.add(p.before() + what + p.after() + root);
                    }
                    Tally t = e.getValue();
                    boolean all = e.getKey() == DifferenceKind.UNPARSABLE_LINE ? t.described && t.shown.size() <= shown : t.count == lines.size();
                    kinds.add(new DifferencesOfKind(e.getKey(), t.count, t.generations, lines, all));
                });
        return new Comparison.Result(count, kinds);
    }
}
