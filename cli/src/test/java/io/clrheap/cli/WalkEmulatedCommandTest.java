package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;

import io.clrheap.cli.ClrheapCommand.Outcome;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code clrheap walk --emulate SCENARIO [--in-process]}: walking an emulated process, through either discovery path. */
class WalkEmulatedCommandTest {

    @Test
    void theInProcessPathPrintsTheAnswerKeysDumpheapStat(@TempDir Path dir) throws Exception {
        assertThat(run("generate", "--scenario", "every-edge", "--runtime", "net9", "--format", "bundle", "--out", dir.toString(), "-q").exitCode()).isZero();
        Outcome r = run("walk", "--emulate", "every-edge", "--runtime", "net9", "--in-process", "--stat");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo(Files.readString(dir.resolve("every-edge-net9-server.answer/dumpheap-stat.txt")));
        assertThat(r.err()).contains("in-process: thread ", "gc_reserved_1 -> GCHeap 0x", "DiagDescrGenerations 0x");
    }

    @Test
    void underWorkstationGcTheInProcessPathSaysItStartsFromGPGcHeap() {
        Outcome r = run("walk", "--emulate", "default", "--gc", "workstation", "--in-process", "--eeheap");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).contains("g_pGCHeap (workstation GC: gc_reserved_1 is 0)");
        // what DiagDescrGenerations does not tell (the heap_segment and committed) prints as 0, and the committed total is unknown
        assertThat(r.out()).containsPattern("generation 2:\n0{16} [0-9a-f]{16} [0-9a-f]{16} 0{16} ")
                .contains("GC Committed Heap Size:    unknown");
    }

    @Test
    void bothPathsPrintTheSameObjects() {
        Outcome dumpPath = run("walk", "--emulate", "frozen-segments", "--objects", "-q");
        Outcome inProcess = run("walk", "--emulate", "frozen-segments", "--in-process", "--objects", "-q");
        assertThat(dumpPath.exitCode()).isZero();
        assertThat(inProcess.out()).isEqualTo(dumpPath.out()).contains("System.String");
    }

    @Test
    void aDumpAndEmulateTogetherOrInProcessWithoutEmulateAreUsageErrors() {
        assertThat(run("walk", "x.core", "--emulate", "default").exitCode()).isEqualTo(2);
        assertThat(run("walk").err()).contains("give either a DUMP, --emulate SCENARIO or --pid PID");
        Outcome r = run("walk", "x.core", "--in-process");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("go with --emulate");
    }

    @Test
    void anUnknownScenarioIsInvalidInputNamingIt() {
        Outcome r = run("walk", "--emulate", "no-such-scenario");
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.err()).contains("no built-in scenario named 'no-such-scenario'");
    }
}
