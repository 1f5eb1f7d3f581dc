package io.clrheap.generator.minidump;

import io.clrheap.generator.ObjectLists;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.truth.GroundTruth;
import io.clrheap.emulator.module.Platform;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.Scenarios;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.report.HandleTableWalker;
import io.clrheap.walker.source.minidump.Minidump;
import io.clrheap.walker.source.minidump.MinidumpThread;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetOpener;
import io.clrheap.walker.heap.Problem;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every built-in scenario, built for Windows and written as a minidump, reads back through the walker's minidump
 * reader, PE exports and discovery as exactly what the emulator placed: the ground truth the Linux build of the
 * same scenario has too.
 */
class MinidumpRoundTripTest {

    @TempDir
    Path dir;

    /** The runtimes clrheap has Windows layouts of (8.0.30, 10.0.9: there is no real Windows .NET 9 to take them from). */
    private static final List<RuntimeVersion> WINDOWS = List.of(RuntimeVersion.NET8, RuntimeVersion.NET10);

    /** A few scenarios on every runtime: the CLI's answer-key test walks every scenario's minidump. */
    static Stream<Arguments> scenarios() {
        return Stream.of("default", "every-edge", "collected", "frozen-segments").flatMap(s -> WINDOWS.stream()
                .flatMap(v -> Stream.of(GcFlavor.values()).map(gc -> Arguments.of(s, v, gc))));
    }

    static Stream<Arguments> runtimes() {
        return WINDOWS.stream().flatMap(v -> Stream.of(GcFlavor.values()).map(gc -> Arguments.of(v, gc)));
    }

    private static EmulatedRuntime windows(Scenario scenario) {
        return new RuntimeBuilder().platform(Platform.WINDOWS).build(scenario);
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("scenarios")
    void everyBuiltInScenarioReadsBackFromItsMinidumpAsItsGroundTruth(String name, RuntimeVersion version, GcFlavor gc) throws Exception {
        Scenario scenario = Scenarios.named(name).orElseThrow().on(version, gc);
        EmulatedRuntime process = windows(scenario);
        Path file = dir.resolve(name + ".dmp");
        MinidumpWriter.write(process, file);
        try (Minidump dump = Minidump.open(file)) {
            Target target = new TargetOpener(ProfileLoader.builtIn()).open(dump);
            assertThat(target.gc()).isEqualTo(gc);
            assertThat(target.version()).startsWith(process.layout().primaryBuild().version());
            assertThat(target.module().fileName()).isEqualTo("coreclr.dll");
            DiscoveredHeap heap = new HeapDiscovery(target).discover();
            assertThat(heap.problems()).extracting(Problem::describe).isEmpty();
            assertThat(heap.heaps()).hasSize(scenario.heaps());
            assertThat(ObjectLists.walked(target, heap)).containsExactlyElementsOf(ObjectLists.placed(process.groundTruth()));
            assertThat(dump.typeNames()).hasValue(process.typeNames());
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("runtimes")
    void theRegionsContextsAndHandlesOfAMinidumpAreThosePlaced(RuntimeVersion version, GcFlavor gc) throws Exception {
        EmulatedRuntime process = windows(Scenarios.named("every-edge").orElseThrow().on(version, gc));
        Path file = dir.resolve("every-edge.dmp");
        MinidumpWriter.write(process, file);
        try (Minidump dump = Minidump.open(file)) {
            Target target = new TargetOpener(ProfileLoader.builtIn()).open(dump);
            DiscoveredHeap heap = new HeapDiscovery(target).discover();
            GroundTruth truth = process.groundTruth();
            String[] generations = {"gen0", "gen1", "gen2", "loh", "poh"};
            assertThat(heap.regionsByAddress()).extracting(r -> String.format("heap %d %s 0x%x [0x%x, 0x%x)", r.heap(), r.kind().id(), r.descriptor(),
                    r.mem(), r.end())).containsExactlyElementsOf(truth.regions().stream()
                    .sorted((a, b) -> Long.compareUnsigned(a.mem(), b.mem()))
                    .map(r -> String.format("heap %d %s 0x%x [0x%x, 0x%x)", r.heap(), r.frozen() ? "frozen" : generations[r.generation()],
                            r.descriptor(), r.mem(), r.end())).toList());
            assertThat(heap.contexts().stream().filter(c -> c.inUse()).map(c -> String.format("0x%x 0x%x 0x%x", c.location(), c.pointer(), c.limit())).sorted())
                    .containsExactlyElementsOf(truth.contexts().stream().map(c -> String.format("0x%x 0x%x 0x%x", c.location(), c.pointer(), c.limit()))
                            .sorted().toList());
            HandleTableWalker handles = new HandleTableWalker(target, heap.heaps().size());
            assertThat(handles.problems()).isEmpty();
            assertThat(handles.handles()).extracting(h -> String.format("0x%x %s 0x%x 0x%x", h.handle(), h.typeName(), h.target(), h.secondary()))
                    .containsExactlyElementsOf(truth.handles().stream().sorted((a, b) -> Long.compareUnsigned(a.handle(), b.handle()))
                            .map(h -> String.format("0x%x %s 0x%x 0x%x", h.handle(), h.type(), h.target(), h.secondary())).toList());
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("runtimes")
    void theModuleThreadsAndProcessOfAMinidumpAreTheProcesss(RuntimeVersion version, GcFlavor gc) throws Exception {
        EmulatedRuntime process = windows(Scenario.defaultScenario(version, gc));
        Path file = dir.resolve("default.dmp");
        MinidumpWriter.write(process, file);
        try (Minidump dump = Minidump.open(file)) {
            assertThat(dump.modules()).singleElement().satisfies(m -> {
                assertThat(m.name()).isEqualTo(process.module().path());
                assertThat(m.base()).isEqualTo(process.module().base());
                assertThat(m.size()).isEqualTo(process.module().size());
                assertThat(m.timeDateStamp()).isEqualTo(Integer.toUnsignedLong(process.module().timeDateStamp()));
            });
            List<GroundTruth.ThreadInfo> threads = process.groundTruth().threads();
            assertThat(dump.threads()).extracting(MinidumpThread::threadId).containsExactlyElementsOf(threads.stream().map(GroundTruth.ThreadInfo::osId).toList());
            for (MinidumpThread t : dump.threads()) {
                long rsp = t.rsp().orElseThrow();
                assertThat(rsp).isBetween(t.stackStart(), t.stackStart() + t.stackSize() - 8);
                assertThat(dump.readBytes(t.stackStart(), (int) t.stackSize())).hasSize((int) t.stackSize());
                assertThat(t.rip().orElseThrow()).isBetween(process.module().base(), process.module().base() + process.module().size() - 1);
                assertThat(dump.readPointer(t.teb() + 0x30)).as("NT_TIB.Self").isEqualTo(t.teb());
                assertThat(dump.readPointer(t.teb() + 0x08)).as("NT_TIB.StackBase").isEqualTo(t.stackStart() + t.stackSize());
            }
            assertThat(dump.processId()).hasValue(threads.getFirst().osId());
            // the process's memory is in the dump, byte for byte: every page it wrote, but the zeros past an image's end
            // that the emulator's 64 KiB chunks hold and no Windows allocation has
            for (var r : process.memory().touchedRanges()) {
                for (long page = r.start(); page < r.end(); page += 0x1000) {
                    int n = (int) Math.min(0x1000, r.end() - page);
                    byte[] written = process.memory().readBytes(page, n);
                    if (dump.contains(page, n)) {
                        assertThat(dump.readBytes(page, n)).as("0x%x", page).isEqualTo(written);
                    } else {
                        assertThat(written).as("0x%x, not in the dump", page).containsOnly(0);
                    }
                }
            }
        }
    }
}
