package io.clrheap.conformance;

import java.util.List;

/**
 * How a walker did on one fixture.
 *
 * @param fixture     the fixture
 * @param status      passed, failed (the walker's output differs, it crashed, timed out or printed what cannot be
 *                    read), or broken (the fixture itself cannot be read: its answer key or its dump)
 * @param verdict     one line: passed, the number of differences, a crash (exit code), a timeout, a broken answer key
 * @param differences the first differences (and the end of the walker's stderr after a crash; the file and line of a broken answer key)
 * @param notes       what is worth knowing even when it passed: where the output was not UTF-8, processes the walker left running
 * @param seconds     how long the walker ran
 */
public record FixtureResult(SuiteFixture fixture, Status status, String verdict, List<String> differences, List<String> notes, double seconds) {

    /** How a fixture ended. */
    public enum Status {
        PASSED, FAILED, BROKEN
    }

    public FixtureResult {
        differences = List.copyOf(differences);
        notes = List.copyOf(notes);
    }

    public FixtureResult(SuiteFixture fixture, boolean passed, String verdict, List<String> differences, double seconds) {
        this(fixture, passed ? Status.PASSED : Status.FAILED, verdict, differences, List.of(), seconds);
    }

    public boolean passed() {
        return status == Status.PASSED;
    }

    /** Whether the fixture itself (not the walker) is at fault: an answer key or dump that cannot be read. */
    public boolean broken() {
        return status == Status.BROKEN;
    }
}
