package io.clrheap.conformance;

import java.util.ArrayList;
import java.util.List;

/**
 * How a walker did on one fixture.
 *
 * @param fixture     the fixture
 * @param status      passed, failed (the walker's output differs, it crashed, timed out or printed what cannot be
 *                    read), or broken (the fixture itself cannot be read: its answer key or its dump)
 * @param verdict     one line: passed, the number of differences with the count of each kind, a crash (exit code), a
 *                    timeout, a broken answer key
 * @param differences what went wrong when no comparison was made: the end of the walker's stderr after a crash, the
 *                    file and line of a broken answer key
 * @param kinds       the differences of a comparison by kind: each kind's count and first lines (most frequent first)
 * @param hint        when the walker printed another report than the one asked for, which one ("did you mean --expect
 *                    stat?"); empty otherwise
 * @param notes       what is worth knowing even when it passed: where the output was not UTF-8, processes the walker left running
 * @param seconds     how long the walker ran
 */
public record FixtureResult(SuiteFixture fixture, Status status, String verdict, List<String> differences, List<DifferencesOfKind> kinds, String hint,
        List<String> notes, double seconds) {

    /** How a fixture ended. */
    public enum Status {
        PASSED, FAILED, BROKEN
    }

    public FixtureResult {
        differences = List.copyOf(differences);
        kinds = List.copyOf(kinds);
        notes = List.copyOf(notes);
    }

    /** A fixture that ended before any comparison (a crash, a timeout, a broken answer key). */
    public FixtureResult(SuiteFixture fixture, Status status, String verdict, List<String> differences, List<String> notes, double seconds) {
        this(fixture, status, verdict, differences, List.of(), "", notes, seconds);
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

    /**
     * What a report shows under the verdict: the hint, what went wrong, then each kind's heading ({@code 1,712 wrong
     * size (all gen0), the first 5:}) followed by its lines, indented by two spaces.
     */
    public List<String> details() {
        List<String> lines = new ArrayList<>();
        if (!hint.isEmpty()) {
            lines.add("hint: " + hint);
        }
        lines.addAll(differences);
        for (DifferencesOfKind k : kinds) {
            lines.add(k.heading());
            k.examples().forEach(e -> lines.add("  " + e));
        }
        return lines;
    }
}
