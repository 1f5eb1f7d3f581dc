package io.clrheap.golden.real;

import static io.clrheap.cli.ClrheapCommand.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand.Outcome;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.report.HandleInfo;
import io.clrheap.walker.walk.WalkSummary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The trimmed real Windows minidumps of golden/real/ (real Windows .NET 8.0.30 and 10.0.9 under Wine, dumped by
 * MiniDumpWriteDump; see golden/real/README.md), walked as a user walks them, against what the program reported about
 * its own objects ({@code OBJ label address mt size type generation} lines of selfreport.txt) and, where the folder has
 * it, the runtime's own list of live objects. Runs everywhere: no Wine needed.
 */
class RealWindowsDumpTest {

    /** Folder, build, GC, heap count. */
    record WindowsDump(String folder, String build, String gc, int heaps) {
        Path dump() {
            return RealDump.root().resolve(folder).resolve("dump.dmp.xz");
        }

        Path file(String name) {
            return RealDump.root().resolve(folder).resolve(name);
        }

        @Override
        public String toString() {
            return folder;
        }
    }

    static final List<WindowsDump> WINDOWS = List.of(new WindowsDump("net8-windows-svr", "8.0.30", "server", 2),
            new WindowsDump("net10-windows-wks", "10.0.9", "workstation", 1));

    /** Set -Dclrheap.golden.update=true to rewrite the expected outputs (then review the diff). */
    private static final boolean UPDATE = Boolean.getBoolean("clrheap.golden.update");

    /** An {@code OBJ} line of HeapProbe.cs: label, address, MethodTable, size (unaligned), type, GC.GetGeneration (-1: unknown). */
    record Reported(String label, long address, long mt, long size, String type, int generation) {
    }

    private static List<Reported> reported(WindowsDump d) throws IOException {
        List<Reported> out = new ArrayList<>();
        for (String line : Files.readAllLines(d.file("selfreport.txt"))) {
            String[] f = line.split(" ");
            if (f[0].equals("OBJ")) {
                out.add(new Reported(f[1], RealDump.hex(f[2]), RealDump.hex(f[3]), Long.parseLong(f[4]), f[5], Integer.parseInt(f[6])));
            }
        }
        return out;
    }

    private record Walked(long mt, long size, Region region) {
    }

    @ParameterizedTest
    @FieldSource("WINDOWS")
    void theDumpIsNamedAsTheWindowsBuildAndGcMode(WindowsDump d) throws Exception {
        try (DumpSession session = Dumps.open(d.dump())) {
            assertThat(session.target().describe()).startsWith(".NET " + d.build() + " (").contains(" on Windows x64, " + d.gc() + " GC, ");
            assertThat(session.heap().heaps()).hasSize(d.heaps());
            assertThat(session.target().layoutSource()).isEqualTo("the profile of " + d.build() + " (builds/windows-x64-" + d.build() + ".json)");
        }
    }

    @ParameterizedTest
    @FieldSource("WINDOWS")
    void everyObjectTheProgramReportedIsWalkedWithItsMethodTableSizeGenerationAndTypeName(WindowsDump d) throws Exception {
        List<Reported> reported = reported(d);
        assertThat(reported).hasSizeGreaterThanOrEqualTo(3000);
        Map<Long, Walked> walked = new HashMap<>();
        try (DumpSession session = Dumps.open(d.dump())) {
            assertThat(session.heap().problems()).as("discovery problems").isEmpty();
            WalkSummary summary = session.walk((address, mt, size, region) -> walked.put(address, new Walked(mt, size, region)));
            assertThat(summary.problems()).as("walk problems").isZero();
            for (Reported o : reported) {
                Walked w = walked.get(o.address());
                assertThat(w).as("%s at 0x%x walked", o.label(), o.address()).isNotNull();
                assertThat(w.mt()).as("%s's MethodTable", o.label()).isEqualTo(o.mt());
                assertThat(w.size()).as("%s's size", o.label()).isEqualTo(o.size());
                if (o.generation() >= 0) { // GC.GetGeneration, where the build's CoreLib has it (not 10.0.9's trimmed one)
                    assertThat(RealDumpWalkTest.generationOf(w.region())).as("%s's generation (%s)", o.label(), w.region()).isEqualTo(o.generation());
                }
                assertThat(session.typeNames().name(o.mt())).as("type of %s", o.label()).hasValue(o.type());
            }
        }
    }

    @ParameterizedTest
    @FieldSource("WINDOWS")
    void everyLiveObjectTheRuntimeListedIsWalked(WindowsDump d) throws Exception {
        Map<Long, Walked> walked = new HashMap<>();
        try (DumpSession session = Dumps.open(d.dump())) {
            session.walk((address, mt, size, region) -> walked.put(address, new Walked(mt, size, region)));
        }
        List<String> lines = Files.readAllLines(d.file("live-objects.txt")).stream().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        assertThat(lines).hasSizeGreaterThan(1000);
        for (String line : lines) {
            String[] t = line.split(" ", 4);
            long address = RealDump.hex(t[0]);
            Walked w = walked.get(address);
            assertThat(w).as("live object %s walked", line).isNotNull();
            assertThat(w.mt()).as("MethodTable of %s", line).isEqualTo(RealDump.hex(t[2]));
        }
    }

    @ParameterizedTest
    @FieldSource("WINDOWS")
    void everyHandleRootOfTheRuntimeIsAHandleOfTheWindowsHandleTablesWithItsTargetAndKind(WindowsDump d) throws Exception {
        Map<Long, HandleInfo> handles = new HashMap<>();
        try (DumpSession session = Dumps.open(d.dump())) {
            for (HandleInfo h : session.handleTables().handles()) {
                handles.put(h.handle(), h);
            }
        }
        int roots = RealDumpHandlesTest.assertHandleRootsListed(Files.readAllLines(d.file("roots.txt")), handles);
        assertThat(roots).isGreaterThan(20);
    }

    @ParameterizedTest
    @FieldSource("WINDOWS")
    void walkStatEqualsTheCommittedExpectedOutput(WindowsDump d) throws IOException {
        Outcome r = run("walk", d.dump().toString(), "--stat");
        assertThat(r.exitCode()).as(r.err()).isZero();
        Path expected = d.file("expected/dumpheap-stat.txt");
        if (UPDATE) {
            Files.createDirectories(expected.getParent());
            Files.writeString(expected, r.out(), StandardCharsets.UTF_8);
        }
        assertThat(r.out()).isEqualTo(Files.readString(expected, StandardCharsets.UTF_8));
        assertThat(r.out()).contains(" ProbeNode\n").containsPattern("\\nTotal [0-9,]+ objects, [0-9,]+ bytes\\n$");
    }

    @ParameterizedTest
    @FieldSource("WINDOWS")
    void verifyEeheapAndHandlesAnswerWithExitZero(WindowsDump d) throws IOException {
        Outcome verify = run("walk", d.dump().toString(), "--verify");
        assertThat(verify.exitCode()).as(verify.err()).isZero();
        assertThat(verify.out()).contains(" objects walked, 0 problems");
        assertThat(verify.err()).contains(" on Windows x64, " + d.gc() + " GC, ").contains(d.heaps() + (d.heaps() == 1 ? " heap, " : " heaps, "));
        Outcome eeheap = run("walk", d.dump().toString(), "--eeheap");
        assertThat(eeheap.exitCode()).as(eeheap.err()).isZero();
        assertThat(eeheap.out()).contains("Pinned object heap").containsPattern("GC Allocated Heap Size: +Size: 0x[0-9a-f]+ \\([0-9]+\\) bytes\\.");
        Outcome handles = run("walk", d.dump().toString(), "--handles");
        assertThat(handles.exitCode()).as(handles.err()).isZero();
        // the program pins one byte[256] with GCHandle.Alloc(…, Pinned) and holds strong handles through statics
        assertThat(handles.out()).containsPattern("\\n +Pinned Handles: +[1-9][0-9]*\\n").containsPattern("\\n +Strong Handles: +[1-9][0-9]*\\n");
    }

    @ParameterizedTest
    @FieldSource("WINDOWS")
    void explainNarratesTheChaseFromThePeExportsOfTheHost(WindowsDump d) throws IOException {
        Outcome r = run("explain", d.dump().toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).startsWith(".NET " + d.build() + " (").contains(" on Windows x64, " + d.gc() + " GC, ")
                .contains("'MZ': a PE image").contains("the module whose PE export directory exports g_dacTable")
                .contains("builds/windows-x64-" + d.build() + ".json");
    }

    @ParameterizedTest
    @FieldSource("WINDOWS")
    void gcrootFindsAHandleRootOfTheObjectThePinnedHandleHolds(WindowsDump d) throws IOException {
        Reported pinned = reported(d).stream().filter(o -> o.label().equals("pinned.handle.bytes.256")).findFirst().orElseThrow();
        Outcome r = run("gcroot", d.dump().toString(), String.format("0x%x", pinned.address()));
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("HandleTable:\n").contains(" (pinned handle)\n").contains(String.format("-> %016x System.Byte[]", pinned.address()))
                .containsPattern("\nFound [1-9][0-9]* unique roots\\.\n");
    }
}
