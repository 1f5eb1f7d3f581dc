package io.clrheap.conformance.corpus;

/**
 * A fixture the corpus holds that no built-in scenario, runtime, platform and GC flavour writes any more.
 *
 * @param fixture the fixture
 * @param reason  why not: {@code no built-in scenario 'x'}, {@code clrheap builds no runtime net7}, {@code no Windows process: ...}
 */
public record Removed(GoldenFixture fixture, String reason) implements FixtureOutcome {

    @Override
    public String summary() {
        return reason;
    }
}
