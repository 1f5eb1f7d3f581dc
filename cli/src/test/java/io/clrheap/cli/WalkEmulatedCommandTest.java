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
    void anEmulatedBuildIsWalkedAsThatBuildAndEveryRuntimeOptionTakesOne() {
        Outcome r = run("walk", "--emulate", "min-object", "--runtime", "10.0.11", "--gc", "workstation", "--eeheap");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out() + r.err()).contains(".NET 10.0.11 (10.0.1126.37416, commit e2f47b0110ed), workstation GC, libcoreclr.so");
        assertThat(r.err()).contains("building min-object (10.0.11, workstation GC)");
        Outcome explain = run("explain", "--emulate", "min-object", "--runtime", "8.0.27");
        assertThat(explain.exitCode()).as(explain.err()).isZero();
        assertThat(explain.out() + explain.err()).contains(".NET 8.0.27 (8.0.2726.22922, commit a6bde67c455f)");
        Outcome layout = run("layout", "--runtime", "8.0.27", "--dac-table");
        assertThat(layout.exitCode()).as(layout.err()).isZero();
        assertThat(layout.out()).contains("g_dacTable: 156 entries in 8.0.27");
        for (String command : new String[] {"walk", "map", "explain", "layout", "demo", "materialize"}) {
            Outcome bad = command.equals("layout") || command.equals("demo") ? run(command, "--runtime", "8.0.99")
                    : command.equals("materialize") ? run(command, "default", "--runtime", "8.0.99") : run(command, "--emulate", "default", "--runtime", "8.0.99");
            assertThat(bad.exitCode()).as(command).isEqualTo(2);
            assertThat(bad.err()).as(command).contains("unknown runtime build '8.0.99'", "8.0.27, 8.0.28, 8.0.29, 8.0.30");
        }
    }

    @Test
    void anUnknownScenarioIsInvalidInputNamingIt() {
        Outcome r = run("walk", "--emulate", "no-such-scenario");
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.err()).contains("no built-in scenario named 'no-such-scenario'");
    }
}
