package io.clrheap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.profile.ProfileLoader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClrheapCommandTest {

    private record Run(int exitCode, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = ClrheapCommand.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void helpListsTheCommandsAndTheTestCommand() {
        Run r = run("--help");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("demo", "layout", "./clrheap test");
    }

    @Test
    void versionNamesClrheapAndTheKnownBuilds() {
        Run r = run("--version");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).startsWith("clrheap ").contains("8.0.30", "9.0.1", "10.0.9");
    }

    @Test
    void layoutPrintsTheHeapSegmentTableOfNet8Server() {
        Run r = run("layout", "--runtime", "net8", "--gc", "server", "--struct", "heap_segment");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("heap_segment — size 0xb8 (184)");
        assertThat(r.out()).containsPattern("\\n  next +0x30 +8 +pointer +dump: E:all\\n");
        assertThat(r.out()).containsPattern("\\n  heap +0x40 +8 +pointer +dump: E:net8");
        assertThat(r.out()).contains("DACH     dotnet/runtime:src/coreclr/gc/gcinterface.dac.h");
    }

    @Test
    void layoutOfWorkstationHasNoOwningHeapInHeapSegment() {
        Run r = run("layout", "--runtime", "net10", "--gc", "wks", "--struct", "heap_segment");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("size 0xa8").doesNotContainPattern("\\n  heap ");
    }

    @Test
    void anUnknownStructureIsAUsageErrorListingTheKnownOnes() {
        Run r = run("layout", "--struct", "heap_segmnt");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("no structure 'heap_segmnt'", "heap_segment", "generation");
        assertThat(r.err()).doesNotContain("at io.clrheap");
    }

    @Test
    void anUnknownRuntimeIsRejectedWithTheKnownOnes() {
        Run r = run("layout", "--runtime", "net7");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("unknown runtime 'net7'", "net8, net9, net10");
    }

    @Test
    void jsonOutputIsAProfileThatLoadsBackToTheSameLayout() {
        Run r = run("layout", "--runtime", "net10", "--gc", "workstation", "--format", "json");
        assertThat(r.exitCode()).isZero();
        RuntimeLayout original = ProfileLoader.builtIn().load("net10.0", GcFlavor.WORKSTATION);
        RuntimeLayout reread = new ProfileLoader(name -> name.equals("printed") ? Optional.of(r.out()) : Optional.empty())
                .load("printed", GcFlavor.WORKSTATION);
        assertThat(reread.types()).isEqualTo(original.types());
        assertThat(Map.copyOf(reread.constants())).isEqualTo(Map.copyOf(original.constants()));
    }

    @Test
    void constantsListFlagBitsWithTheirSources() {
        Run r = run("layout", "--runtime", "net9", "--constants");
        assertThat(r.out()).containsPattern("heap_segment\\.flags\\.readonly +1 +0x1 +dump: E:all");
        assertThat(r.out()).containsPattern("IGCHeap\\.DiagDescrGenerations\\.slot +69 +0x45");
    }

    @Test
    void dacTableListsEachBuildsIndexes() {
        Run r = run("layout", "--runtime", "net8", "--dac-table");
        assertThat(r.out()).contains("g_dacTable of 8.0.30: 157 entries", "g_dacTable of 8.0.27: 156 entries");
        assertThat(r.out()).containsPattern("g_gcDacGlobals +20 +0xa0");
    }

    @Test
    void demoEmulatesWalksAndChecksTheDefaultScenario() {
        Run r = run("demo");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("net8.0 server", "exports g_dacTable (157 entries) -> build 8.0.30", "2 heaps",
                "Statistics:", "System.String", "Free", "4. Checked: the walker found");
    }

    @Test
    void demoRunsOnEveryRuntime() {
        for (String v : new String[] {"net9", "net10"}) {
            for (String gc : new String[] {"server", "workstation"}) {
                Run r = run("demo", "--runtime", v, "--gc", gc);
                assertThat(r.exitCode()).as(v + " " + gc + ": " + r.err()).isZero();
                assertThat(r.out()).contains("4. Checked");
            }
        }
    }
}
