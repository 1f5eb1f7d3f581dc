package io.clrheap.conformance.corpus;

/**
 * The fixture in the corpus is byte for byte what a fresh build writes.
 *
 * @param fixture the fixture
 * @param totals  its heap's objects and bytes
 */
public record Unchanged(GoldenFixture fixture, ObjectTotals totals) implements FixtureOutcome {

    @Override
    public String summary() {
        return "unchanged";
    }
}
