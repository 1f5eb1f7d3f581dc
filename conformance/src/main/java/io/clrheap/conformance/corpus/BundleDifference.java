package io.clrheap.conformance.corpus;

import java.util.List;
import java.util.Locale;

/**
 * How a fixture's bundle differs between the corpus and a fresh build: its size, the first differing byte of the
 * files, and which entries (by their manifest digests) differ — {@code answer/objects.tsv}, a {@code memory/...} range,
 * {@code manifest.json} itself when only the manifest changed.
 *
 * @param presence       where the bundle is; when only in one, the sizes of the other are -1 and nothing else is known
 * @param committedSize  the committed bundle's bytes (-1 when missing)
 * @param freshSize      the fresh bundle's bytes (-1 when no longer written)
 * @param firstOffset    the first byte offset at which the two files differ (-1 when one is missing)
 * @param changedEntries entries whose digest or size differs, that only one has, by name; or one line saying why the
 *                       committed bundle's entries could not be read
 */
public record BundleDifference(Presence presence, long committedSize, long freshSize, long firstOffset, List<String> changedEntries)
        implements DumpDifference {

    /** Entries named in {@link #describe()}; the rest are counted. */
    static final int SHOWN_ENTRIES = 3;

    public BundleDifference {
        changedEntries = List.copyOf(changedEntries);
    }

    /** One line: {@code bundle 61,760 -> 61,804 bytes, first difference at byte 1,234 (entries answer/objects.tsv, ...)}. */
    @Override
    public String describe() {
        return switch (presence) {
            case ONLY_IN_BUILD -> "bundle: missing from the corpus";
            case ONLY_IN_CORPUS -> "bundle: in the corpus, no longer written";
            case BOTH -> String.format(Locale.ROOT, "bundle %,d -> %,d bytes, first difference at byte %,d%s", committedSize, freshSize, firstOffset,
                    entries());
        };
    }

    private String entries() {
        if (changedEntries.isEmpty()) {
            return "";
        }
        List<String> shown = changedEntries.subList(0, Math.min(SHOWN_ENTRIES, changedEntries.size()));
        int more = changedEntries.size() - shown.size();
        return " (" + String.join(", ", shown) + (more > 0 ? String.format(Locale.ROOT, " and %,d more", more) : "") + ")";
    }
}
