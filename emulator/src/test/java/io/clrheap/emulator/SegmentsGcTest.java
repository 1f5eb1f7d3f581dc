package io.clrheap.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.emulator.scenario.Feature;
import io.clrheap.emulator.scenario.GcMode;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.truth.GroundTruth;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.SegmentsGcLayout;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 31: the emulated standalone segments GC (libclrgc.so) lays its heaps out as the real 9.0.x dumps of it show
 * (docs/reference/discovery.md section 14; the facts in profiles/gc/libclrgc-linux-x64-9.0.json).
 */
class SegmentsGcTest {

    private static final SegmentsGcLayout GC = SegmentsGcLayout.libclrgc();

    private static EmulatedRuntime build(String scenario, GcFlavor gc) {
        return new RuntimeBuilder().build(Scenarios.named(scenario).orElseThrow().on(RuntimeVersion.NET9, gc));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(GcFlavor.class)
    void everyGenerationStartsWithAMinimumFreeObjectAndGen2Gen1Gen0FollowOneAnotherInTheEphemeralSegment(GcFlavor gc) {
        EmulatedRuntime runtime = build("trap-generation-starts", gc);
        GroundTruth truth = runtime.groundTruth();
        java.util.Map<Long, long[]> objects = new java.util.HashMap<>(); // address -> {mt, size}
        truth.forEachObject((address, mt, size, generation, heap, kind) -> objects.put(address, new long[] {mt, size, kind.ordinal()}));
        for (int h = 0; h < runtime.scenario().heaps(); h++) {
            long[] starts = truth.generationStarts(h);
            assertThat(starts).as("heap %d's generation starts", h).isNotNull().hasSize(5);
            assertThat(starts[2]).as("gen2 below gen1").isLessThan(starts[1]);
            assertThat(starts[1]).as("gen1 below gen0").isLessThan(starts[0]);
            for (long start : starts) {
                assertThat(objects.get(start)).as("an object at allocation_start 0x%x", start).isNotNull();
                assertThat(objects.get(start)[1]).as("the start object's size").isEqualTo(GC.startObjectSize());
                assertThat(objects.get(start)[2]).as("a free object").isEqualTo(GroundTruth.Kind.FREE.ordinal());
            }
            final int heap = h;
            // the ephemeral segment's three parts share one heap_segment, at the segment's base; mem = base + 0x1000
            List<GroundTruth.RegionInfo> ephemeral = truth.regions().stream().filter(r -> r.heap() == heap && !r.frozen() && r.generation() <= 1).toList();
            long base = ephemeral.get(0).descriptor();
            assertThat(ephemeral).extracting(GroundTruth.RegionInfo::descriptor).containsOnly(base);
            assertThat(starts[2]).isEqualTo(base + GC.firstObjectOffset());
            // regions.tsv: gen1's and gen0's parts start at their allocation_start, so that no two parts start at one address
            assertThat(ephemeral).extracting(GroundTruth.RegionInfo::start).containsExactlyInAnyOrder(starts[1], starts[0]);
        }
    }

    @Test
    void segmentsAreReservedAsTheRealGcReservesThemSohFirstThenLohThenPoh() {
        EmulatedRuntime wks = build("segments", GcFlavor.WORKSTATION);
        List<GroundTruth.RegionInfo> regions = wks.groundTruth().regions().stream().filter(r -> !r.frozen()).toList();
        long soh = regions.stream().filter(r -> r.generation() <= 2).mapToLong(GroundTruth.RegionInfo::descriptor).min().orElseThrow();
        long loh = regions.stream().filter(r -> r.generation() == 3).mapToLong(GroundTruth.RegionInfo::descriptor).min().orElseThrow();
        long poh = regions.stream().filter(r -> r.generation() == 4).mapToLong(GroundTruth.RegionInfo::descriptor).min().orElseThrow();
        assertThat(loh - soh).as("a workstation SOH segment: 256 MiB (the real dumps)").isEqualTo(GC.workstationSoh()).isEqualTo(256L << 20);
        assertThat(poh - loh).as("a workstation LOH segment: 128 MiB").isEqualTo(GC.workstationUoh()).isEqualTo(128L << 20);
        EmulatedRuntime svr = build("segments", GcFlavor.SERVER);
        List<GroundTruth.RegionInfo> ephemeral = svr.groundTruth().regions().stream().filter(r -> !r.frozen() && r.generation() == 0).toList();
        assertThat(ephemeral).hasSize(2);
        assertThat(Math.abs(ephemeral.get(1).descriptor() - ephemeral.get(0).descriptor())).as("a 2-heap server GC's SOH segments: 4 GiB each").isEqualTo(4L << 30);
    }

    @Test
    void theGcsStaticsLieInItsOwnModulePastItsLastFileMapping() {
        EmulatedRuntime runtime = build("segments", GcFlavor.WORKSTATION);
        assertThat(runtime.mappings()).anyMatch(m -> m.path().endsWith("/libclrgc.so"));
        assertThat(runtime.mappings().get(0).path()).as("the runtime module's mappings first").endsWith("/libcoreclr.so");
    }

    @Test
    void staleObjectsPastASegmentsEndAreNoObjectsOfTheHeap() {
        EmulatedRuntime runtime = build("trap-stale-segment-tail", GcFlavor.WORKSTATION);
        GroundTruth.RegionInfo gen0 = runtime.groundTruth().regions().stream().filter(r -> !r.frozen() && r.generation() == 0).findFirst().orElseThrow();
        long mt = runtime.memory().readLong(gen0.end());
        assertThat(mt).as("a System.Object image right after alloc_allocated").isNotZero();
        assertThat(gen0.committed()).as("inside the committed memory").isGreaterThan(gen0.end());
        java.util.Set<Long> addresses = new java.util.HashSet<>();
        runtime.groundTruth().forEachObject((address, m, size, generation, heap, kind) -> addresses.add(address));
        assertThat(addresses).doesNotContain(gen0.end());
    }

    static Stream<Arguments> refusals() {
        return Stream.of(Arguments.of(Scenarios.named("context-at-region-end").orElseThrow().on(RuntimeVersion.NET9, GcFlavor.SERVER).toBuilder()
                        .gcMode(GcMode.SEGMENTS).build(), "context-at-region-end"),
                Arguments.of(Scenarios.named("trap-stale-segment-tail").orElseThrow().toBuilder().gcMode(GcMode.REGIONS).build(), "stale-segment-tail"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("refusals")
    void anEdgeCaseOfTheOtherGcIsRefusedByName(Scenario scenario, String feature) {
        assertThatThrownBy(() -> new RuntimeBuilder().build(scenario)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(feature);
    }

    @Test
    void theSegmentsGcIsEmulatedForDotNet9Only() {
        assertThatThrownBy(() -> Scenario.builder("s").runtime(RuntimeVersion.NET8).gcMode(GcMode.SEGMENTS).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(".NET 9");
        assertThat(Set.of(Feature.values())).filteredOn(Feature::segmentsOnly).containsExactlyInAnyOrder(Feature.CONTEXT_AT_GENERATION_START,
                Feature.STALE_SEGMENT_TAIL);
    }
}
