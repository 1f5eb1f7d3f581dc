package io.clrheap.golden.conformance;

import static io.clrheap.cli.ClrheapCommand.run;

import io.clrheap.cli.ClrheapCommand.Outcome;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance suite against walkers run as commands: a naive walker (the source article's approach) fails
 * exactly the fixtures designed for its mistakes, each failure naming the mistake; the project's own walker passes.
 */
class NaiveWalkerConformanceTest {

    private static final String[] SUITE = {"naive-plain", "trap-live-context", "trap-frozen", "trap-unaligned-size"};

    @TempDir
    static Path suite;

    /** A Java main of this test class path, as an external command. */
    private static String java(String mainClass, String arguments) {
        return "\"" + Path.of(System.getProperty("java.home"), "bin", "java") + "\" --enable-native-access=ALL-UNNAMED -cp \""
                + System.getProperty("java.class.path") + "\" " + mainClass + " " + arguments;
    }

    @BeforeAll
    static void theSuite() {
        for (String scenario : SUITE) {
            assertThat(run("generate", "--scenario", scenario, "--format", "elf", "--out", suite.toString(), "-q").exitCode()).isZero();
        }
    }

    @Test
    void theNaiveWalkerFailsExactlyTheTrapsAndTheReportNamesEachMistake() {
        Outcome r = run("conform", "--walker", java(NaiveWalker.class.getName(), "{dump}"), "--expect", "objects", "--suite", suite.toString());
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out()).contains("PASS naive-plain", "FAIL trap-live-context", "FAIL trap-frozen", "FAIL trap-unaligned-size",
                "1 of 4 fixtures passed; 3 failed.");
        assertThat(r.out()).contains("designed to catch: trap-live-context on net8 (8.0.30), server GC, 2 heaps, seed 7: trap: live allocation contexts",
                "does not skip [alloc_ptr, alloc_limit + 24)", "a walker that ignores the frozen heap misses them",
                "a walker that reports the 8-byte aligned size gets their bytes wrong");
        assertThat(r.out()).contains("missing object: ", "wrong size: ");
    }

    @Test
    void theProjectsOwnWalkerPassesTheSameSuite() {
        Outcome r = run("conform", "--walker", java(ClrheapCommand.class.getName(), "walk {dump} --objects -q"), "--expect", "objects",
                "--suite", suite.toString());
        assertThat(r.exitCode()).as(r.out()).isZero();
        assertThat(r.out()).contains("4 of 4 fixtures passed.");
    }
}
