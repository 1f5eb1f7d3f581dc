package io.clrheap.conformance;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * All the differences of one kind in one fixture: how many, where in the heap they are (per generation, when they name
 * an object or address the answer key places), and the first few, one line each.
 *
 * @param kind        the kind
 * @param count       how many
 * @param generations how many lie in each generation of objects.tsv (gen0 … frozen), or {@code no region} for an
 *                    address outside every region; empty when the kind names no addresses or the key cannot place them
 * @param examples    the first {@link Differences#SHOWN_PER_KIND} ({@link Differences#SHOWN_ALONE} when it is the only kind)
 * @param all         whether the examples tell of every difference of the kind (a line of identical unparsable lines
 *                    tells of them all)
 */
public record DifferencesOfKind(DifferenceKind kind, long count, Map<String, Long> generations, List<String> examples, boolean all) {

    public DifferencesOfKind {
        generations = Map.copyOf(generations);
        examples = List.copyOf(examples);
    }

    /** {@code 1,712 wrong size (gen0 700, gen2 1,012)}, {@code 16 missing object (all loh)}. */
    public String summary() {
        return String.format(Locale.ROOT, "%,d %s%s", count, kind.label(), where());
    }

    /** The summary without the kind's label, for a column headed by it: {@code 16 (all loh)}. */
    public String counted() {
        return String.format(Locale.ROOT, "%,d%s", count, where());
    }

    /** The summary, then whether the examples are all of them: a heading for the examples. */
    public String heading() {
        return summary() + (all ? ":" : String.format(Locale.ROOT, ", the first %d:", examples.size()));
    }

    private String where() {
        if (generations.isEmpty()) {
            return "";
        }
        if (generations.size() == 1 && generations.values().iterator().next() == count) {
            return " (all " + generations.keySet().iterator().next() + ")";
        }
        return generations.entrySet().stream().sorted(Map.Entry.comparingByKey(DifferencesOfKind::byGeneration))
                .map(e -> String.format(Locale.ROOT, "%s %,d", e.getKey(), e.getValue())).collect(Collectors.joining(", ", " (", ")"));
    }

    /** objects.tsv's generations youngest first, then anything else by name. */
    private static int byGeneration(String a, String b) {
        List<String> order = List.of("gen0", "gen1", "gen2", "loh", "poh", "frozen");
        int x = order.indexOf(a) < 0 ? order.size() : order.indexOf(a);
        int y = order.indexOf(b) < 0 ? order.size() : order.indexOf(b);
        return x != y ? Integer.compare(x, y) : a.compareTo(b);
    }
}
