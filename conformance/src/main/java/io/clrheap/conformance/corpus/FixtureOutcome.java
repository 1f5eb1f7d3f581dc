package io.clrheap.conformance.corpus;

/**
 * How one fixture of a golden corpus compares with a fresh build: {@link Unchanged}, {@link Changed}, {@link Added} (the
 * build writes a fixture the corpus lacks) or {@link Removed} (the corpus holds a fixture no built-in scenario writes).
 */
public sealed interface FixtureOutcome extends Comparable<FixtureOutcome> permits Unchanged, Changed, Added, Removed {

    /** The fixture. */
    GoldenFixture fixture();

    /** What differs, in one line (no fixture name): {@code unchanged}, {@code bundle ...; eeheap.txt: ...}. */
    String summary();

    /** Outcomes sort by fixture id. */
    @Override
    default int compareTo(FixtureOutcome other) {
        return fixture().compareTo(other.fixture());
    }
}
