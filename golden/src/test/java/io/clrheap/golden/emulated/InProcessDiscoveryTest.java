package io.clrheap.golden.emulated;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.truth.GroundTruth;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.Scenarios;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.memory.Memory;
import io.clrheap.process.NativeCalls;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.discovery.InProcessDiscovery;
import io.clrheap.walker.discovery.InProcessRoute;
import io.clrheap.walker.source.elf.MappedFile;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetOpener;
import io.clrheap.walker.heap.Problem;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The in-process discovery path (a thread's allocation context → gc_reserved_1 → GCHeap → vtable slot 69
 * DiagDescrGenerations, called as an emulated native function; frozen segments through RegisterFrozenSegment) finds
 * the same regions as the dump path (g_dacTable → GcDacVars → generation tables), and a walk over them finds exactly
 * what the emulator placed: every built-in scenario × 8/9/10 × server/workstation.
 */
class InProcessDiscoveryTest {

    static Stream<Arguments> scenarios() {
        return Scenarios.everyday().stream().flatMap(s -> Stream.of(RuntimeVersion.values())
                .flatMap(v -> Stream.of(GcFlavor.values()).map(gc -> Arguments.of(s.name(), v, gc))));
    }

    private static EmulatedRuntime build(String name, RuntimeVersion version, GcFlavor gc) {
        return new RuntimeBuilder().build(Scenarios.named(name).orElseThrow().on(version, gc));
    }

    private static Target open(EmulatedRuntime runtime, Memory memory) throws Exception {
        List<MappedFile> files = runtime.mappings().stream()
                .map(m -> new MappedFile(m.start(), m.end(), m.fileOffset(), m.path())).toList();
        return new TargetOpener(ProfileLoader.builtIn()).open(memory, files, Optional.empty());
    }

    /** Heap, kind, where the objects are and the reservation: what both paths can tell about a region. */
    private static List<String> regions(DiscoveredHeap heap) {
        return heap.regionsByAddress().stream()
                .map(r -> String.format("heap %d %s [0x%x, 0x%x) reserved 0x%x%s", r.heap(), r.kind().id(), r.mem(), r.end(), r.reserved(),
                        r.ephemeral() ? " ephemeral" : "")).toList();
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("scenarios")
    void bothDiscoveryPathsFindTheSameRegionsAndTheInProcessWalkFindsEveryObjectPlaced(String name, RuntimeVersion version, GcFlavor gc)
            throws Exception {
        EmulatedRuntime runtime = build(name, version, gc);
        NativeCalls calls = runtime.nativeCalls();
        Target inProcessTarget = open(runtime, calls.memory());
        DiscoveredHeap inProcess = new InProcessDiscovery(inProcessTarget, calls).discover();
        DiscoveredHeap dump = new HeapDiscovery(open(runtime, runtime.memory())).discover();

        assertThat(inProcess.problems()).extracting(Problem::describe).isEmpty();
        assertThat(regions(inProcess)).isNotEmpty().containsExactlyElementsOf(regions(dump));

        List<String> problems = new ArrayList<>();
        List<String> walked = ObjectLines.walked(inProcessTarget, inProcess, problems);
        assertThat(problems).isEmpty();
        assertThat(walked).containsExactlyElementsOf(ObjectLines.placed(runtime));
    }

    @Test
    void underServerGcTheGcHeapComesFromAThreadsAllocationContext() throws Exception {
        EmulatedRuntime runtime = build("default", RuntimeVersion.NET10, GcFlavor.SERVER);
        NativeCalls calls = runtime.nativeCalls();
        InProcessDiscovery discovery = new InProcessDiscovery(open(runtime, calls.memory()), calls);
        DiscoveredHeap heap = discovery.discover();
        InProcessRoute route = discovery.route();
        GroundTruth.ThreadInfo thread = runtime.groundTruth().threads().stream().filter(t -> t.allocContext() == route.allocContext())
                .findFirst().orElseThrow();
        assertThat(route.thread()).startsWith("thread " + thread.managedId());
        assertThat(route.gcHeap()).isNotEqualTo(runtime.gcStatics().globalGcHeap());
        assertThat(route.vtable()).isEqualTo(runtime.gcStatics().vtable());
        assertThat(route.descrGenerations()).isEqualTo(runtime.gcStatics().codeOf(69));
        assertThat(route.ranges()).isEqualTo(heap.regionsByAddress().stream().filter(r -> r.kind() != io.clrheap.walker.heap.SegmentKind.FROZEN).count());
        assertThat(route.frozenHandle()).isNotZero();
    }

    @Test
    void underWorkstationGcTheGcHeapIsGPGcHeapBecauseNoThreadHasGcReserved1() throws Exception {
        EmulatedRuntime runtime = build("default", RuntimeVersion.NET8, GcFlavor.WORKSTATION);
        NativeCalls calls = runtime.nativeCalls();
        InProcessDiscovery discovery = new InProcessDiscovery(open(runtime, calls.memory()), calls);
        discovery.discover();
        assertThat(discovery.route().thread()).isEmpty();
        assertThat(discovery.route().gcHeap()).isEqualTo(runtime.gcStatics().globalGcHeap());
    }

    @Test
    void theDummyFrozenSegmentIsUnregisteredAfterwards() throws Exception {
        EmulatedRuntime runtime = build("frozen-segments", RuntimeVersion.NET9, GcFlavor.SERVER);
        NativeCalls calls = runtime.nativeCalls();
        Target target = open(runtime, calls.memory());
        DiscoveredHeap first = new InProcessDiscovery(target, calls).discover();
        DiscoveredHeap again = new InProcessDiscovery(target, calls).discover();
        // the first dummy is gone from heap 0's gen2 list: the second discovery finds the same three frozen segments
        assertThat(regions(again)).containsExactlyElementsOf(regions(first));
        assertThat(first.regionsByAddress()).filteredOn(r -> r.kind() == io.clrheap.walker.heap.SegmentKind.FROZEN).hasSize(3);
    }
}
