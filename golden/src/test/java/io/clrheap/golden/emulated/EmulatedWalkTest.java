package io.clrheap.golden.emulated;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.truth.GroundTruth;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.source.elf.MappedFile;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetOpener;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.WalkLimits;
import io.clrheap.walker.walk.WalkRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The walker, proven on real dumps, walks emulated processes through the same discovery path and finds exactly
 * what the emulator placed.
 */
class EmulatedWalkTest {

    static Stream<Arguments> runtimes() {
        return Stream.of(RuntimeVersion.values()).flatMap(v -> Stream.of(GcFlavor.values()).map(gc -> Arguments.of(v, gc)));
    }

    static Stream<Arguments> scenarios() {
        return io.clrheap.emulator.Scenarios.everyday().stream().flatMap(s -> Stream.of(RuntimeVersion.values())
                .flatMap(v -> Stream.of(GcFlavor.values()).map(gc -> Arguments.of(s.name(), v, gc))));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("scenarios")
    void everyBuiltInScenarioWalksToExactlyItsGroundTruth(String name, RuntimeVersion version, GcFlavor gc) throws Exception {
        Scenario scenario = io.clrheap.emulator.Scenarios.named(name).orElseThrow().on(version, gc);
        EmulatedRuntime runtime = new RuntimeBuilder().build(scenario);
        Target target = open(runtime);
        assertThat(target.gc()).isEqualTo(gc);
        assertThat(target.version()).isEqualTo(runtime.layout().primaryBuild().version());
        DiscoveredHeap heap = new HeapDiscovery(target).discover();
        assertThat(heap.problems()).extracting(Problem::describe).isEmpty();
        assertThat(heap.heaps()).hasSize(scenario.heaps());
        List<String> problems = new ArrayList<>();
        List<String> walked = ObjectLines.walked(target, heap, problems);
        assertThat(problems).isEmpty();
        assertThat(walked).containsExactlyElementsOf(ObjectLines.placed(runtime));
    }

    private static Target open(EmulatedRuntime runtime) throws Exception {
        List<MappedFile> files = runtime.mappings().stream()
                .map(m -> new MappedFile(m.start(), m.end(), m.fileOffset(), m.path())).toList();
        return new TargetOpener(ProfileLoader.builtIn()).open(runtime.memory(), files, Optional.empty());
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("runtimes")
    void theHandlesFoundAreTheHandlesPlaced(RuntimeVersion version, GcFlavor gc) throws Exception {
        EmulatedRuntime runtime = new RuntimeBuilder().build(Scenario.defaultScenario(version, gc));
        Target target = open(runtime);
        DiscoveredHeap heap = new HeapDiscovery(target).discover();
        var walker = new io.clrheap.walker.report.HandleTableWalker(target, heap.heaps().size());
        List<String> found = walker.handles().stream()
                .map(h -> String.format("0x%x %s 0x%x 0x%x", h.handle(), h.typeName(), h.target(), h.secondary())).toList();
        List<String> placed = runtime.groundTruth().handles().stream()
                .sorted((a, b) -> Long.compareUnsigned(a.handle(), b.handle()))
                .map(h -> String.format("0x%x %s 0x%x 0x%x", h.handle(), h.type(), h.target(), h.secondary())).toList();
        assertThat(walker.problems()).isEmpty();
        assertThat(found).isNotEmpty().containsExactlyElementsOf(placed);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("runtimes")
    void theThreadsAndContextsFoundAreThosePlaced(RuntimeVersion version, GcFlavor gc) throws Exception {
        EmulatedRuntime runtime = new RuntimeBuilder().build(io.clrheap.emulator.Scenarios.named("every-edge").orElseThrow().on(version, gc));
        DiscoveredHeap heap = new HeapDiscovery(open(runtime)).discover();
        List<String> found = heap.contexts().stream().filter(c -> c.inUse())
                .map(c -> String.format("0x%x 0x%x 0x%x", c.location(), c.pointer(), c.limit())).sorted().toList();
        List<String> placed = runtime.groundTruth().contexts().stream()
                .map(c -> String.format("0x%x 0x%x 0x%x", c.location(), c.pointer(), c.limit())).sorted().toList();
        assertThat(found).isNotEmpty().containsExactlyElementsOf(placed);
        // every thread of the thread store is found, by its Linux thread id
        for (GroundTruth.ThreadInfo t : runtime.groundTruth().threads()) {
            assertThat(heap.contexts()).anyMatch(c -> c.location() == t.allocContext() && c.owner().contains("tid " + t.osId()));
        }
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("scenarios")
    void theRegionsFoundAreTheRegionsPlaced(String name, RuntimeVersion version, GcFlavor gc) throws Exception {
        EmulatedRuntime runtime = new RuntimeBuilder().build(io.clrheap.emulator.Scenarios.named(name).orElseThrow().on(version, gc));
        DiscoveredHeap heap = new HeapDiscovery(open(runtime)).discover();
        List<String> found = heap.regionsByAddress().stream()
                .map(r -> String.format("heap %d %s 0x%x [0x%x, 0x%x) flags 0x%x", r.heap(), r.kind().id(), r.descriptor(), r.mem(), r.end(), r.flags())).toList();
        List<String> placed = runtime.groundTruth().regions().stream()
                .sorted((a, b) -> Long.compareUnsigned(a.mem(), b.mem()))
                .map(r -> String.format("heap %d %s 0x%x [0x%x, 0x%x) flags 0x%x", r.heap(),
                        r.frozen() ? "frozen" : new String[] {"gen0", "gen1", "gen2", "loh", "poh"}[r.generation()], r.descriptor(), r.mem(), r.end(), r.flags())).toList();
        assertThat(found).containsExactlyElementsOf(placed);
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("scenarios")
    void theStatisticsOfTheWalkAreThoseOfTheGroundTruth(String name, RuntimeVersion version, GcFlavor gc) throws Exception {
        EmulatedRuntime runtime = new RuntimeBuilder().build(io.clrheap.emulator.Scenarios.named(name).orElseThrow().on(version, gc));
        Target target = open(runtime);
        DiscoveredHeap heap = new HeapDiscovery(target).discover();
        var walker = new HeapWalker(target.memory(), WalkRules.of(target.layout()), heap, WalkLimits.DEFAULT);
        var stat = new io.clrheap.walker.report.DumpHeapStat();
        walker.walkRegions(io.clrheap.walker.report.DumpHeapStat::new, stat::merge, 3);
        GroundTruth truth = runtime.groundTruth();
        java.util.Map<Long, long[]> expected = truth.statistics();
        assertThat(stat.objects()).isEqualTo(truth.objectCount());
        assertThat(stat.bytes()).isEqualTo(expected.values().stream().mapToLong(r -> r[1]).sum());
        expected.forEach((mt, row) -> assertThat(stat.count(mt)).as("objects of 0x%x", mt).isEqualTo(row[0]));
        java.io.StringWriter text = new java.io.StringWriter();
        stat.print(new java.io.PrintWriter(text), io.clrheap.walker.report.TypeNames.of(runtime.typeNames()), heap.freeMethodTable());
        assertThat(text.toString()).contains("Statistics:", "Total ").doesNotContain("Unknown");
    }
}
