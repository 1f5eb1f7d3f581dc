package io.clrheap.golden.conformance;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand;
import io.clrheap.cli.ClrheapCommand.Outcome;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The segments GC's traps against walkers run as commands: a walker that walks each generation's whole heap_segment
 * passes a regions heap and fails trap-generation-starts on both GC flavours, reporting the ephemeral segment's
 * objects more than once; a walker that walks each segment to its committed end fails trap-stale-segment-tail; the
 * project's own walker passes every segments scenario.
 */
class SegmentsWalkerConformanceTest {

    @TempDir
    static Path regions;
    @TempDir
    static Path generationStarts;
    @TempDir
    static Path staleTail;
    @TempDir
    static Path segments;

    /** A Java main of this test class path, as an external command. */
    private static String java(String mainClass, String arguments) {
        return "\"" + Path.of(System.getProperty("java.home"), "bin", "java") + "\" --enable-native-access=ALL-UNNAMED -cp \""
                + System.getProperty("java.class.path") + "\" " + mainClass + " " + arguments;
    }

    private static void generate(Path folder, String... options) {
        String[] args = new String[options.length + 6];
        args[0] = "generate";
        System.arraycopy(options, 0, args, 1, options.length);
        System.arraycopy(new String[] {"--format", "elf", "--out", folder.toString(), "-q"}, 0, args, options.length + 1, 5);
        Outcome r = run(args);
        assertThat(r.exitCode()).as(r.err()).isZero();
    }

    @BeforeAll
    static void theFixtures() {
        generate(regions, "--scenario", "naive-plain");
        generate(generationStarts, "--scenario", "trap-generation-starts", "--gc", "server,workstation");
        generate(staleTail, "--scenario", "trap-stale-segment-tail");
        generate(segments, "--scenario", "segments,trap-generation-starts,trap-context-at-generation-start,trap-stale-segment-tail");
    }

    private static Outcome conform(String walker, Path suite) {
        return run("conform", "--walker", java(walker, "{dump}"), "--expect", "objects", "--suite", suite.toString());
    }

    @Test
    void theGenerationListWalkerPassesARegionsHeapWhereEveryGenerationHasSegmentsOfItsOwn() {
        Outcome r = conform(GenerationListWalker.class.getName(), regions);
        assertThat(r.exitCode()).as(r.out()).isZero();
        assertThat(r.out()).contains("PASS naive-plain");
    }

    @Test
    void theGenerationListWalkerFailsTrapGenerationStartsOnServerAndWorkstationWithDuplicatedObjects() {
        Outcome r = conform(GenerationListWalker.class.getName(), generationStarts);
        assertThat(r.exitCode()).as(r.out()).isEqualTo(1);
        assertThat(r.out()).contains("FAIL trap-generation-starts-net9-server-segments", "FAIL trap-generation-starts-net9-workstation-segments",
                "0 of 2 fixtures passed; 2 failed.");
        // every object of the ephemeral segment is reported once per generation in it: the repeats are extra, none is missing
        assertThat(r.out()).contains("extra object: ").doesNotContain("missing object: ", "wrong size: ");
    }

    @Test
    void theCommittedWalkerFailsTrapStaleSegmentTailWithObjectsThatAreNotThere() {
        Outcome r = conform(SegmentCommittedWalker.class.getName(), staleTail);
        assertThat(r.exitCode()).as(r.out()).isEqualTo(1);
        assertThat(r.out()).contains("FAIL trap-stale-segment-tail", "extra object: ", "no object starts there")
                .doesNotContain("missing object: ");
    }

    @Test
    void theProjectsOwnWalkerPassesEverySegmentsScenario() {
        Outcome r = run("conform", "--walker", java(ClrheapCommand.class.getName(), "walk {dump} --objects -q"), "--expect", "objects",
                "--suite", segments.toString());
        assertThat(r.exitCode()).as(r.out()).isZero();
        assertThat(r.out()).contains("PASS segments-net9-server-segments", "PASS trap-generation-starts-net9-server-segments",
                "PASS trap-context-at-generation-start-net9-server-segments", "PASS trap-stale-segment-tail-net9-server-segments",
                "4 of 4 fixtures passed.");
    }
}
