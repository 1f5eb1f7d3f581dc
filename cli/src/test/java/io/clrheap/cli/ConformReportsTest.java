package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * conform --expect eeheap and --expect handles: the project's own walker passes, its output reformatted with other
 * column widths too; a walker that gets the regions or the handles wrong fails, the report quoting the line that differs.
 */
class ConformReportsTest {

    /** Server GC with a NonGC heap, and workstation GC with every trap. */
    private static final String[][] FIXTURES = {{"default", "server"}, {"every-edge", "workstation"}};

    @TempDir
    static Path suite;

    private static String java() {
        return "\"" + Path.of(System.getProperty("java.home"), "bin", "java") + "\" --enable-native-access=ALL-UNNAMED -cp \""
                + System.getProperty("java.class.path") + "\" ";
    }

    private static String ownWalker(String report) {
        return java() + "io.clrheap.cli.ClrheapCommand walk {dump} " + report + " -q";
    }

    private static String mistaken(MistakenReportsWalker.Mistake mistake) {
        return java() + "io.clrheap.cli.MistakenReportsWalker " + mistake + " {dump}";
    }

    @BeforeAll
    static void aSuite() {
        for (String[] f : FIXTURES) {
            Outcome r = run("generate", "--scenario", f[0], "--gc", f[1], "--format", "bundle", "--out", suite.toString(), "-q");
            assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
        }
    }

    private static Outcome conform(String walker, String expect) {
        return run("conform", "--walker", walker, "--expect", expect, "--format", "bundle", "--suite", suite.toString());
    }

    @Test
    void theProjectsOwnEeheapAndHandlesPassEveryFixture() {
        for (String[] report : new String[][] {{"--eeheap", "eeheap"}, {"--handles", "handles"}}) {
            Outcome r = conform(ownWalker(report[0]), report[1]);
            assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
            assertThat(r.out()).contains(FIXTURES.length + " of " + FIXTURES.length + " fixtures passed.");
        }
    }

    @Test
    void otherColumnWidthsAndBlankLinesPass() {
        Outcome r = conform("sh -c \"" + ownWalker("--eeheap").replace("\"", "'") + " | sed -e 's/ \\{1,\\}/\\t/g' -e 'G'\"", "eeheap");
        assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
    }

    @Test
    void anEphemeralRegionEndingAtHeapSegmentAllocatedFailsOnItsRow() {
        Outcome r = conform(mistaken(MistakenReportsWalker.Mistake.EPHEMERAL_ENDS_AT_SEGMENT_ALLOCATED), "eeheap");
        assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.out()).contains("0 of " + FIXTURES.length + " fixtures passed").containsPattern("output line \\d+: '[0-9a-f]{16} ")
                .contains("GC Allocated Heap Size");
    }

    @Test
    void aWalkerWithoutTheNonGcHeapFailsTheServerFixture() {
        Outcome r = conform(mistaken(MistakenReportsWalker.Mistake.SKIPS_THE_NONGC_HEAP), "eeheap");
        assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.out()).contains("FAIL default").contains("NonGC heap");
    }

    @Test
    void aWalkerPrintingAlignedSizesFailsOnAString() {
        Outcome r = conform(mistaken(MistakenReportsWalker.Mistake.ALIGNED_SIZES), "handles");
        assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.out()).contains("0 of " + FIXTURES.length + " fixtures passed").containsPattern("output line \\d+: '[0-9a-f]{16} \\w+ +[0-9a-f]{16} +\\d+ +System.String'");
    }

    @Test
    void aWalkerReadingDependentHandlesAsStrongFailsOnTheirRowsAndCounts() {
        Outcome r = conform(mistaken(MistakenReportsWalker.Mistake.DEPENDENT_AS_STRONG), "handles");
        assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.out()).contains("0 of " + FIXTURES.length + " fixtures passed").contains("Strong");
    }
}
