package io.clrheap.conformance.corpus;

/**
 * A fixture the build writes and the corpus did not hold (a new scenario, runtime or GC flavour).
 *
 * @param fixture the fixture
 * @param totals  its heap's objects and bytes
 */
public record Added(GoldenFixture fixture, ObjectTotals totals) implements FixtureOutcome {

    @Override
    public String summary() {
        return "new fixture: " + totals.describe();
    }
}
