package io.clrheap.golden.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.capture.SnapshotAgreement;
import io.clrheap.capture.SnapshotTrace;
import io.clrheap.capture.ipc.DiagnosticsException;
import io.clrheap.capture.snapshot.GcHeapSnapshot;
import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.module.Platform;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.RuntimeChoice;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetException;
import io.clrheap.walker.source.minidump.Minidump;
import io.clrheap.walker.walk.WalkSummary;
import io.clrheap.walker.source.minidump.MinidumpModule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real Windows .NET under Wine: for each Windows build × GC mode, the process reports what it should, and a minidump
 * written by MiniDumpWriteDump holds every reported object with its MethodTable as its first 8 bytes (read with
 * clrheap's own minidump reader, no heap walk), names the executable among its modules and the program's process id;
 * then, the process still running, the runtime's own list of its live objects is asked for through its diagnostics
 * named pipe (an EventPipe heap snapshot, as {@code clrheap capture} takes it on Linux); then clrheap walks the dump
 * with the Windows layouts of the build, as a user would: the build and the system named, 0 problems, every reported
 * object found with its MethodTable, size and type name, and every object of the runtime's list that the dump holds
 * found with its MethodTable and size; the fields of the program's objects in the dump hold the values it reported by
 * reflection ({@link SelfReportedFields}). The process exits when closed. One process per case, dumped once (about 30 s
 * each).
 */
class WineHarnessTest {

    /** A Windows process id no process of these tests has. */
    private static final long NO_SUCH_PID = 65532;

    static Stream<Arguments> builds() {
        List<Arguments> cases = new ArrayList<>();
        for (WindowsRuntime runtime : WindowsRuntime.values()) {
            cases.add(Arguments.of(runtime, false));
            cases.add(Arguments.of(runtime, true));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} server GC {1}")
    @MethodSource("builds")
    void aRealWindowsProcessIsDumpedAndWalkedWithItsWindowsLayouts(WindowsRuntime runtime, boolean serverGc, @TempDir Path folder) throws Exception {
        long started = System.nanoTime();
        WineTestProcess process = WineTestProcess.start(runtime, serverGc);
        long ready = System.nanoTime();
        try (process) {
            assertThat(process.isAlive()).isTrue();
            assertThat(process.pid()).as("the Windows process id").isPositive();
            assertThat(process.output()).contains("PID " + process.pid());
            assertThat(process.runtimeVersion()).as("System.Private.CoreLib's assembly version").isEqualTo(runtime.major() + ".0.0.0");
            assertThat(process.environmentVersion()).as("Environment.Version: the build").isEqualTo(runtime.version());
            if (runtime.major() == 8) {
                assertThat(process.reportedGc()).isEqualTo(serverGc ? "server" : "workstation");
                assertThat(process.reportedHeapCount()).isEqualTo(serverGc ? 2 : 1);
                assertThat(process.generation(process.object("object"))).isEqualTo(2);
                // allocated after the full GCs; under Wine a gen0 GC now and then runs while the program allocates the
                // 3,000 small objects after it (one run in five, under load), which makes it gen1
                assertThat(process.generation(process.object("young.object"))).isBetween(0, 1);
            } else {
                // 10.0.9's trimmed Windows CoreLib has neither GC.GetConfigurationVariables, GCSettings nor GC.GetGeneration
                assertThat(process.reportedGc()).isEqualTo("unknown");
                assertThat(process.reportedHeapCount()).isZero();
                assertThat(process.generation(process.object("object"))).isEqualTo(-1);
            }
            List<ReportedObject> objects = process.objects();
            assertThat(objects).extracting(ReportedObject::label).contains("object", "string.empty", "string.heap", "bytes.0",
                    "refs.5", "node.first", "loh.bytes.100000", "pinned.handle.bytes.256", "young.object", "young.node", "small.2999");
            assertThat(objects.size()).isGreaterThanOrEqualTo(3000);
            assertThat(process.object("string.empty").size()).isEqualTo(22);
            assertThat(process.object("bytes.7").size()).isEqualTo(24 + 7);
            assertThat(process.object("loh.bytes.100000").size()).isEqualTo(100_024);

            Path file = process.minidump(folder.resolve("dump.dmp"));
            long dumped = System.nanoTime();
            // after the dump, as capture does on Linux: the snapshot's GC may move objects, which it moves back
            SnapshotTrace trace = process.heapSnapshot(folder.resolve("snapshot.nettrace"));
            // what these tests cost (CI has two cores and a shared budget), in the build's output
            System.err.printf("clrheap: %s: READY in %.1f s, a %d MB minidump in %.1f s, the runtime's heap snapshot (%,d objects, %,d moved back) "
                    + "in %.1f s%n", process, (ready - started) / 1e9, Files.size(file) >> 20, (dumped - ready) / 1e9, trace.snapshot().nodeCount(),
                    trace.snapshot().relocatedObjects(), (System.nanoTime() - dumped) / 1e9);
            try (Minidump dump = Minidump.open(file)) {
                assertThat(dump.processId()).as("the MiscInfoStream's process id").hasValue(process.pid());
                String exe = Path.of(runtime.host()).getFileName().toString();
                assertThat(dump.modules()).extracting(MinidumpModule::fileName).as("the module list names the executable").contains(exe);
                assertThat(dump.modules().getFirst().fileName()).as("the main module comes first").isEqualTo(exe);
                for (ReportedObject o : objects) {
                    assertThat(dump.contains(o.address(), o.size())).as("%s at 0x%x is in the dump", o.label(), o.address()).isTrue();
                    assertThat(dump.readLong(o.address())).as("%s: the MethodTable at 0x%x", o.label(), o.address()).isEqualTo(o.methodTable());
                    assertThat(dump.contains(o.methodTable(), 8)).as("%s's MethodTable 0x%x is in the dump", o.label(), o.methodTable()).isTrue();
                }
            }
            // the snapshot's GC names the heap count, which says the GC mode where the trimmed 10.0.9 CoreLib cannot
            assertThat(trace.snapshot().gcEvents()).as("the snapshot's GC events").anyMatch(l -> l.startsWith("GCGlobalHeapHistory NumHeaps=" + (serverGc ? 2 : 1) + " "));
            List<GcHeapSnapshot.Node> live = trace.snapshot().liveObjects();
            // a process without the pipe (no such Windows process id: Wine's are multiples of 4 from 32 up): the relay's failure, said
            assertThatThrownBy(() -> process.diagnostics(NO_SUCH_PID, Duration.ofSeconds(30)).collectTracing(1, List.of()))
                    .isInstanceOf(DiagnosticsException.class).hasMessageContaining("exit code 3")
                    .hasMessageContaining("dotnet-diagnostic-" + NO_SUCH_PID + ") failed: error 2");
            theRuntimesListHoldsTheProgramsObjects(live, objects);
            walksWithTheWindowsLayouts(runtime, serverGc, file, objects, live);
            try (DumpSession session = Dumps.open(file)) {
                SelfReportedFields.Checked fields = SelfReportedFields.assertMatch(session, process.probe(),
                        "Windows " + runtime.version() + (serverGc ? " server" : " workstation") + " GC under Wine, minidump");
                System.err.printf(Locale.ROOT, "clrheap: %s: %d field values reported by reflection, %d as assigned, all walked so%n", process,
                        fields.reflected(), fields.assigned());
            }
            emulatedWindowsProcessIsLaidOutAsTheRealOne(runtime, serverGc, file);
            assertThat(process.isAlive()).as("dumping leaves the process running").isTrue();
        }
        assertThat(process.isAlive()).as("the process ended on close").isFalse();
        assertThat(process.exitCode()).as("it exited when told to, not killed").isEqualTo(0);
    }

    /** The runtime's list names every object the program reported, where the program saw it, with its MethodTable and size. */
    private static void theRuntimesListHoldsTheProgramsObjects(List<GcHeapSnapshot.Node> live, List<ReportedObject> objects) {
        Map<Long, GcHeapSnapshot.Node> byAddress = new HashMap<>();
        live.forEach(n -> byAddress.put(n.address(), n));
        for (ReportedObject o : objects) {
            GcHeapSnapshot.Node n = byAddress.get(o.address());
            assertThat(n).as("%s at 0x%x in the runtime's heap snapshot", o.label(), o.address()).isNotNull();
            assertThat(n.methodTable()).as("%s's MethodTable in the snapshot", o.label()).isEqualTo(o.methodTable());
            assertThat(n.size()).as("%s's size in the snapshot", o.label()).isEqualTo(o.size());
        }
    }

    /**
     * {@code clrheap walk --verify} of the dump, through the front door ({@link Dumps#open}), held to the program's
     * objects and to the runtime's list ({@code live}). The list was taken after the dump: what the runtime allocated
     * in between, or moved and the snapshot's moved ranges do not undo, is not in the dump at the listed address. Only
     * the objects whose MethodTable word the dump holds at their address are compared (read from the dump's memory,
     * not found by the walk: {@link SnapshotAgreement}, as capture checks a snapshot against its dump); the program is
     * idle, so at most 1 % of the list may be left out.
     */
    private static void walksWithTheWindowsLayouts(WindowsRuntime runtime, boolean serverGc, Path file, List<ReportedObject> objects,
            List<GcHeapSnapshot.Node> live) throws IOException {
        try (DumpSession session = Dumps.open(file)) {
            Target target = session.target();
            assertThat(target.describe()).startsWith(".NET " + runtime.version() + " (")
                    .contains(" on Windows x64, " + (serverGc ? "server" : "workstation") + " GC, ");
            assertThat(target.layoutSource()).isEqualTo("the profile of " + runtime.version() + " (builds/windows-x64-" + runtime.version() + ".json)");
            // the heap count says the GC mode where the trimmed 10.0.9 CoreLib cannot
            assertThat(session.heap().heaps()).hasSize(serverGc ? 2 : 1);
            assertThat(session.heap().problems()).as("discovery problems").isEmpty();
            Map<Long, long[]> walked = new HashMap<>();
            WalkSummary summary = session.walk((address, mt, size, region) -> walked.put(address, new long[] {mt, size}));
            assertThat(summary.problems()).as("walk problems").isZero();
            for (ReportedObject o : objects) {
                assertThat(walked.get(o.address())).as("%s at 0x%x walked", o.label(), o.address()).isNotNull()
                        .containsExactly(o.methodTable(), o.size());
                assertThat(session.typeNames().name(o.methodTable())).as("type of %s at 0x%x", o.label(), o.address()).hasValue(o.type());
            }
            SnapshotAgreement agreement;
            try (Minidump dump = Minidump.open(file)) {
                // no regions: which objects are comparable is read from the dump's memory alone, not from the walker's heap
                agreement = SnapshotAgreement.check(dump, List.of(), live);
            }
            assertThat(agreement.agrees()).as("the idle process's snapshot describes its dump: %s", agreement.describe()).isTrue();
            Set<Long> changed = new HashSet<>();
            agreement.changed().forEach(c -> changed.add(c.node().address()));
            long compared = 0;
            for (GcHeapSnapshot.Node n : live) {
                if (changed.contains(n.address())) {
                    continue;
                }
                assertThat(walked.get(n.address())).as("the runtime's live object 0x%x %s walked", n.address(), n.type()).isNotNull()
                        .containsExactly(n.methodTable(), n.size());
                compared++;
            }
            assertThat(compared).as("live objects compared").isEqualTo(agreement.found()).isEqualTo(live.size() - changed.size());
            System.err.printf(Locale.ROOT, "clrheap: %s %s GC: the walk (%,d objects) found all %,d of the runtime's %,d live objects that the dump holds%s%n",
                    runtime.version(), serverGc ? "server" : "workstation", walked.size(), compared, live.size(),
                    changed.isEmpty() ? "" : "; left out, not in the dump as listed: " + changed.size() + ", first "
                            + agreement.changed().stream().limit(5).map(SnapshotAgreement.Changed::line).toList());
        } catch (TargetException e) {
            throw new AssertionError(file + " is refused: " + e.getMessage(), e);
        }
    }

    /**
     * The emulated Windows process of the same build and GC mode, read by the same independent reader as the real dump
     * ({@link WindowsLayoutFacts}: only the facts measured on real dumps): the same table length, the free object's
     * MethodTable and the thread list where the real runtime has them.
     */
    private static void emulatedWindowsProcessIsLaidOutAsTheRealOne(WindowsRuntime runtime, boolean serverGc, Path file) throws Exception {
        WindowsLayoutFacts.Build build = WindowsLayoutFacts.Build.of(runtime);
        WindowsLayoutFacts real;
        List<Long> realThreads;
        try (Minidump dump = Minidump.open(file)) {
            real = WindowsLayoutFacts.read(dump, dump.modules().getFirst().base(), build);
            realThreads = dump.threads().stream().map(t -> t.threadId()).toList();
        }
        assertThat(real.tableLength()).as("the real g_dacTable's length").isEqualTo(build.tableLength);
        assertThat(real.freeMtBaseSize()).as("the real free object's BaseSize").isEqualTo(24);
        assertThat(real.threadOsIds()).as("the real thread list's OS ids are threads of the dump").isNotEmpty().isSubsetOf(realThreads);

        GcFlavor gc = serverGc ? GcFlavor.SERVER : GcFlavor.WORKSTATION;
        RuntimeVersion version = runtime.major() == 8 ? RuntimeVersion.NET8 : RuntimeVersion.NET10;
        EmulatedRuntime emulated = new RuntimeBuilder().platform(Platform.WINDOWS)
                .build(Scenario.defaultScenario(new RuntimeChoice(version, runtime.version()), gc));
        WindowsLayoutFacts fixture = WindowsLayoutFacts.read(emulated.memory(), emulated.module().base(), build);
        assertThat(fixture.tableLength()).as("the emulated g_dacTable's length").isEqualTo(real.tableLength());
        assertThat(fixture.freeMtBaseSize()).isEqualTo(real.freeMtBaseSize());
        assertThat(fixture.threadOsIds()).isEqualTo(emulated.groundTruth().threads().stream().map(t -> t.osId()).toList());
    }
}
