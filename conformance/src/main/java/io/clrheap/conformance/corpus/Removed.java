package io.clrheap.conformance.corpus;

/**
 * A fixture the corpus holds that no built-in scenario, runtime and GC flavour writes any more.
 *
 * @param fixture the fixture
 */
public record Removed(GoldenFixture fixture) implements FixtureOutcome {

    @Override
    public String summary() {
        return fixture.runtime().isEmpty()
                ? "clrheap builds no runtime " + fixture.folder().substring(0, fixture.folder().indexOf('-'))
                : "no built-in scenario '" + fixture.name() + "'";
    }
}
