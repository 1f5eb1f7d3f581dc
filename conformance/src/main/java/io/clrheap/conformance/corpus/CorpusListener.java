package io.clrheap.conformance.corpus;

/** Hears of each fixture of a corpus check or update as it is done (one call at a time, in the order they finish). */
@FunctionalInterface
public interface CorpusListener {

    /** Hears nothing. */
    CorpusListener NONE = (outcome, done, total) -> { };

    /**
     * @param outcome how the fixture compared
     * @param done    fixtures done so far, this one included
     * @param total   fixtures in the run
     */
    void finished(FixtureOutcome outcome, int done, int total);
}
