package io.clrheap.conformance.corpus;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How a golden corpus compares with fresh builds — or, after an update, what the update changed.
 *
 * @param outcomes every fixture considered, sorted by id
 * @param strays   entries of the corpus folders that belong to no fixture, relative to the corpus ({@code net8-server/notes.txt}),
 *                 sorted; an update deletes them
 * @param index    how the committed {@code corpus.tsv} differs from the one the fresh builds give, when it does
 */
public record CorpusReport(List<FixtureOutcome> outcomes, List<String> strays, Optional<FileDifference> index) {

    public CorpusReport {
        outcomes = outcomes.stream().sorted().toList();
        strays = strays.stream().sorted().toList();
    }

    /** The outcomes of type {@code kind}. */
    public <T extends FixtureOutcome> List<T> of(Class<T> kind) {
        return outcomes.stream().filter(kind::isInstance).map(kind::cast).toList();
    }

    /** Whether the corpus was already exactly what fresh builds write: every fixture unchanged, no stray, the same corpus.tsv. */
    public boolean upToDate() {
        return outcomes.stream().allMatch(o -> o instanceof Unchanged) && strays.isEmpty() && index.isEmpty();
    }

    /** {@code 2 changed, 1 added, 0 removed, 213 unchanged}. */
    public String counts() {
        return String.format(Locale.ROOT, "%d changed, %d added, %d removed, %d unchanged", of(Changed.class).size(), of(Added.class).size(),
                of(Removed.class).size(), of(Unchanged.class).size());
    }
}
