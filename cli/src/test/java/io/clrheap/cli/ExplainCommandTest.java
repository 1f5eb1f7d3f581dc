package io.clrheap.cli;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code clrheap explain}: on a fixture bundle, on an emulated process in-process, and its errors and exit codes. */
class ExplainCommandTest {

    @TempDir
    static Path dir;
    private static String bundle;

    @BeforeAll
    static void generate() {
        assertThat(run("generate", "--scenario", "every-edge", "--format", "bundle", "--out", dir.toString(), "-q").exitCode()).isZero();
        bundle = dir.resolve("every-edge-net8-server.clrheap.tar.xz").toString();
    }

    /** The address of the first walked object whose type is {@code type}. */
    private static String firstObject(String type) {
        Outcome walk = run("walk", bundle, "--objects", "-q");
        return Arrays.stream(walk.out().split("\n")).map(l -> l.split("\t")).filter(f -> f.length == 7 && f[6].equals(type))
                .map(f -> f[0]).findFirst().orElseThrow();
    }

    @Test
    void theDumpPathIsNarratedFromTheModuleToTheRegions() {
        Outcome r = run("explain", bundle);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("runtime module", "g_dacTable", "[20] g_gcDacGlobals", "GcDacVars", "n_heaps", "generation table",
                "heap 0 gen2 list, heap_segment 1", "thread store", "global allocation context",
                "HeapDiscovery (what walk uses) made the reads above");
    }

    @Test
    void aWindowsMinidumpsCoreclrDllIsNamedByItsVersionResource() {
        Path out = dir.resolve("windows");
        Outcome g = run("generate", "--scenario", "min-object", "--runtime", "net8", "--gc", "workstation", "--format", "minidump", "--out",
                out.toString(), "-q");
        assertThat(g.exitCode()).as(g.err()).isZero();
        Outcome r = run("explain", out.resolve("min-object-net8-workstation.dmp").toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        // (the narration wraps its notes: each fragment is one that fits on a line)
        assertThat(r.out()).contains("the module whose PE export directory exports g_dacTable", "version resource",
                        "RT_VERSION of coreclr.dll at 0x", "(data directory 2", "type 16 (RT_VERSION)", "→ name 1 → language 0x409",
                        "dwFileVersionLS", "file build 3026 (patch = build / 100 = 30)", "file version 8.0.3026.36720",
                        "the build was named by the version resource (VS_FIXEDFILEINFO)")
                .doesNotContain("DotNetRuntimeInfo at");
    }

    @Test
    void aStringsSizeAndSuccessorAreExplained() {
        Outcome r = run("explain", bundle, "--object", firstObject("System.String"));
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("m_StringLength", "size = BaseSize + count × ComponentSize = 22 + ", "step = max(align8(", "next = 0x", "string, System.String");
    }

    @Test
    void theInProcessPathIsNarratedOnAnEmulatedProcess() {
        Outcome r = run("explain", "--emulate", "default", "--in-process");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("gc_reserved_1", "IGCHeap vtable", "slot 69", "DiagDescrGenerations", "RegisterFrozenSegment",
                "the dummy frozen segment", "UnregisterFrozenSegment", "the route InProcessDiscovery took (narrated above)");
    }

    @Test
    void anAddressOutsideTheHeapIsExit1NamingTheNearestRegion() {
        Outcome r = run("explain", bundle, "--object", "0x10");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("0x10 is in no region of the heap; the nearest is heap ");
    }

    @Test
    void aNonHexAddressIsAUsageError() {
        Outcome r = run("explain", bundle, "--object", "0xnothex");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--object 0xnothex: not a hex address");
    }

    @Test
    void aFileThatIsNoDumpCannotBeOpened() throws Exception {
        Path text = Files.writeString(dir.resolve("notes.txt"), "not a dump\n");
        Outcome r = run("explain", text.toString());
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.err()).startsWith("clrheap explain: ");
    }

    @Test
    void aDumpAndEmulateTogetherAreAUsageError() {
        assertThat(run("explain", bundle, "--emulate", "default").exitCode()).isEqualTo(2);
        assertThat(run("explain", bundle, "--in-process").err()).contains("go with --emulate");
    }
}
