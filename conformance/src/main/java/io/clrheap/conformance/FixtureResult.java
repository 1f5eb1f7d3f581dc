package io.clrheap.conformance;

import java.util.List;

/**
 * How a walker did on one fixture.
 *
 * @param fixture     the fixture
 * @param passed      its output equals the answer key
 * @param verdict     one line: passed, the number of differences, a crash (exit code) or a timeout
 * @param differences the first differences (and the end of the walker's stderr after a crash)
 * @param seconds     how long the walker ran
 */
public record FixtureResult(SuiteFixture fixture, boolean passed, String verdict, List<String> differences, double seconds) {
}
