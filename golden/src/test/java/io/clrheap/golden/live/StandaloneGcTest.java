package io.clrheap.golden.live;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand;
import io.clrheap.cli.ClrheapCommand.Outcome;
import io.clrheap.dac.TestDac;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 31: the standalone GCs the classic 9.0.x packages ship beside libcoreclr.so ({@code @azure/mcp-linux-x64@0.5.13}:
 * 9.0.7, {@code libclrgc.so} the segments GC, {@code libclrgcexp.so} a regions one), chosen with {@code DOTNET_GCName}.
 * A real process on each, workstation and server GC, is walked running ({@code walk --pid}), then captured, and its dump walked: the runtime's own live list
 * agrees (golden check), the walk meets no problem, the report names the GC module and its mode, Microsoft's DAC of the
 * same build lists the same objects with the same MethodTables, sizes, generations and heaps, and the DAC's own heap walker
 * ({@code --engine dac-heapwalk}) the same objects but the free ones, with the same MethodTables and sizes rounded up to 8.
 */
class StandaloneGcTest {

    /**
     * Every classic 9.0.x package ships both GCs: 9.0.7 is run on each, workstation and server; 9.0.1 and 9.0.5 on the
     * segments GC, whose layout (generation stride, gc_heap offsets) is the one to differ from the built-in GC's.
     */
    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(RuntimeBuild.V9_0_7_CLASSIC, TestDac.Build.NET_9_0_7, "libclrgc.so", "segments", false),
                Arguments.of(RuntimeBuild.V9_0_7_CLASSIC, TestDac.Build.NET_9_0_7, "libclrgc.so", "segments", true),
                Arguments.of(RuntimeBuild.V9_0_7_CLASSIC, TestDac.Build.NET_9_0_7, "libclrgcexp.so", "regions", false),
                Arguments.of(RuntimeBuild.V9_0_7_CLASSIC, TestDac.Build.NET_9_0_7, "libclrgcexp.so", "regions", true),
                Arguments.of(RuntimeBuild.V9_0_1, TestDac.Build.NET_9_0_1, "libclrgc.so", "segments", false),
                Arguments.of(RuntimeBuild.V9_0_1, TestDac.Build.NET_9_0_1, "libclrgc.so", "segments", true),
                Arguments.of(RuntimeBuild.V9_0_5, TestDac.Build.NET_9_0_5, "libclrgc.so", "segments", false),
                Arguments.of(RuntimeBuild.V9_0_5, TestDac.Build.NET_9_0_5, "libclrgc.so", "segments", true));
    }

    @ParameterizedTest(name = "{0} {2} server GC {4}")
    @MethodSource("cases")
    void aRealProcessOnAStandaloneGcIsWalkedAsItsRuntimeAndItsDacSeeIt(RuntimeBuild build, TestDac.Build dacBuild, String gcName, String mode,
            boolean serverGc, @TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("capture");
        try (DotnetTestProcess process = DotnetTestProcess.start(build, serverGc, Map.of("DOTNET_GCName", gcName))) {
            // the running process first, read through process_vm_readv (walk --pid): its GC named, no problem
            Outcome live = ClrheapCommand.run("walk", "--pid", Long.toString(process.pid()), "--verify");
            assertThat(live.exitCode()).as("walk --pid: %s%s", live.out(), live.err()).isZero();
            assertThat(live.out()).contains(" 0 problems");
            assertThat(live.err()).contains("GC (standalone " + gcName + ", " + mode + ")");
            Outcome capture = ClrheapCommand.run("capture", "--pid", Long.toString(process.pid()), "--out", out.toString(), "--xz-preset", "0");
            assertThat(capture.exitCode()).as("capture: %s%s", capture.out(), capture.err()).isZero();
        }
        String core = out.resolve("core.xz").toString();
        Outcome check = ClrheapCommand.run("golden", "check", out.toString());
        assertThat(check.exitCode()).as("golden check: %s%s", check.out(), check.err()).isZero();
        Outcome verify = ClrheapCommand.run("walk", core, "--verify");
        assertThat(verify.exitCode()).as(verify.out()).isZero();
        assertThat(verify.out()).contains(" 0 problems");
        assertThat(verify.err()).as("the description names the GC module").contains((serverGc ? "server" : "workstation") + " GC (standalone " + gcName + ", "
                + mode + "), libcoreclr.so");
        assertThat(verify.err() + verify.out()).as("a standalone GC's own gc_heap layout is no profile to fix").doesNotContain("is to fix");
        Path dac = TestDac.path(dacBuild);
        Outcome eeheap = ClrheapCommand.run("walk", core, "--eeheap");
        if (mode.equals("segments")) {
            // SOS's segments layout: the generations' starts, then one row per segment, the ephemeral one included once
            List<String> rows = eeheap.out().lines().toList();
            assertThat(rows).anyMatch(l -> l.matches("generation 0 starts at [0-9a-f]+")).anyMatch(l -> l.matches("generation 1 starts at [0-9a-f]+"))
                    .anyMatch(l -> l.matches("generation 2 starts at [0-9a-f]+")).anyMatch(l -> l.startsWith("ephemeral segment allocation context: "))
                    .anyMatch(l -> l.matches("Large object heap starts at [0-9a-f]+")).noneMatch(l -> l.equals("generation 0:"));
        } else {
            assertThat(eeheap.out()).contains("generation 0:").doesNotContain("starts at");
        }
        Outcome dacEeheap = ClrheapCommand.run("walk", core, "--eeheap", "--engine", "dac", "--dac", dac.toString());
        assertThat(dacEeheap.out()).as("eeheap -gc as Microsoft's %s DAC reports the heap", dacBuild).isEqualTo(eeheap.out());
        Outcome ours = ClrheapCommand.run("walk", core, "--objects", "-q");
        Outcome theirs = ClrheapCommand.run("walk", core, "--objects", "-q", "--engine", "dac", "--dac", dac.toString());
        assertThat(theirs.exitCode()).as(theirs.err()).isZero();
        assertThat(columns(theirs.out())).as("Microsoft's %s DAC: address, MT, size, generation, heap", dacBuild).isEqualTo(columns(ours.out()));
        assertThat(ours.out().lines().count()).isGreaterThan(10_000);
        // the DAC's own heap walker (IDacDbiInterface::WalkHeap), not the SOS path above: it lists no free object,
        // rounds sizes up to 8 and names no generation, so the walker's objects are held to it in that form
        Outcome heapWalk = ClrheapCommand.run("walk", core, "--objects", "-q", "--engine", "dac-heapwalk", "--dac", dac.toString());
        assertThat(heapWalk.exitCode()).as(heapWalk.err()).isZero();
        List<String> walkersObjects = asTheHeapWalkerListsThem(ours.out());
        assertThat(walkersObjects).hasSizeGreaterThan(10_000);
        assertThat(addressMethodTableSize(heapWalk.out())).as("Microsoft's %s DAC's heap walker: address, MT, size", dacBuild).isEqualTo(walkersObjects);
    }

    /** A listing's rows (header skipped) as their address, MethodTable and size columns. */
    private static List<String> addressMethodTableSize(String listing) {
        return listing.lines().skip(1).map(l -> l.split("\t")).map(f -> f[0] + "\t" + f[1] + "\t" + f[2]).toList();
    }

    /** The walker's listing as the DAC's heap walker gives it: free objects (kind {@code free}) dropped, sizes rounded up to 8. */
    private static List<String> asTheHeapWalkerListsThem(String listing) {
        return listing.lines().skip(1).map(l -> l.split("\t")).filter(f -> !f[5].equals("free"))
                .map(f -> f[0] + "\t" + f[1] + "\t" + ((Long.parseLong(f[2]) + 7) & ~7L)).toList();
    }

    private static final Pattern ROW = Pattern.compile("^(0x\\S+\\t\\S+\\t\\S+\\t\\S+\\t\\S+)\\t.*$", Pattern.MULTILINE);

    /** The rows' first five columns (type names may differ: the DAC names some types the trimmed dump cannot). */
    private static List<String> columns(String listing) {
        Matcher m = ROW.matcher(listing);
        List<String> rows = new java.util.ArrayList<>();
        while (m.find()) {
            rows.add(m.group(1));
        }
        return rows;
    }
}
