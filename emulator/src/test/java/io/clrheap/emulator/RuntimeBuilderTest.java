package io.clrheap.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import io.clrheap.emulator.scenario.Feature;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.truth.GroundTruth;

class RuntimeBuilderTest {

    static Stream<Arguments> runtimes() {
        return Stream.of(RuntimeVersion.values()).flatMap(v -> Stream.of(GcFlavor.values()).map(gc -> Arguments.of(v, gc)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("runtimes")
    void theDefaultScenarioIsAWellFormedHeap(RuntimeVersion v, GcFlavor gc) {
        EmulatedRuntime runtime = new RuntimeBuilder().build(Scenario.defaultScenario(v, gc));
        assertThat(InvariantChecker.check(runtime)).isEmpty();
        GroundTruth t = runtime.groundTruth();
        assertThat(t.objectCount()).isGreaterThan(6500);
        assertThat(t.contexts()).hasSize(3);
        assertThat(t.regions()).anyMatch(GroundTruth.RegionInfo::frozen);
        assertThat(t.regions()).filteredOn(r -> r.generation() == 3).isNotEmpty();
    }

    static Stream<Arguments> scenarios() {
        return Scenarios.everyday().stream().flatMap(s -> runtimes().map(a -> Arguments.of(s.name(), a.get()[0], a.get()[1])));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("scenarios")
    void everyBuiltInScenarioIsAWellFormedHeap(String name, RuntimeVersion v, GcFlavor gc) {
        Scenario s = Scenarios.named(name).orElseThrow().on(v, gc);
        assertThat(s.description()).isNotBlank();
        assertThat(InvariantChecker.check(new RuntimeBuilder().build(s))).isEmpty();
    }

    @Test
    void theLargeScenariosAreDeclaredAsTheIssueAsksAndKeptOutOfTheEverydayList() {
        // checked on their declarations, not built: building them takes seconds (large) to minutes (scale-64), which is
        // why every per-scenario test iterates over everyday() instead of all()
        Scenario large = Scenarios.named("large").orElseThrow();
        assertThat(large.heaps()).isEqualTo(2);
        assertThat(large.gc()).isEqualTo(GcFlavor.SERVER);
        assertThat(large.gen2Objects() + large.gen1Objects() + large.gen0Objects() + large.lohObjects() + large.pohObjects()
                + large.frozenStrings()).isGreaterThanOrEqualTo(5_000_000);
        // every edge case of the regions GC (those of the segments GC are refused under it)
        assertThat(large.features()).containsExactlyInAnyOrderElementsOf(java.util.Arrays.stream(Feature.values()).filter(f -> !f.segmentsOnly()).toList());
        Scenario scale = Scenarios.named("scale-64").orElseThrow();
        assertThat(scale.heaps()).isEqualTo(64);
        assertThat(scale.gen2Objects() + scale.gen1Objects() + scale.gen0Objects() + scale.lohObjects() + scale.pohObjects()
                + scale.frozenStrings()).isGreaterThanOrEqualTo(100_000_000);
        assertThat(Scenarios.everyday()).extracting(Scenario::name).doesNotContain("large", "scale-64").contains("default", "every-edge");
        // all() = everyday() + the two large ones + the segments GC's own (.NET 9 only, apart from everyday())
        assertThat(Scenarios.everyday()).hasSize(Scenarios.all().size() - 2 - Scenarios.segments().size());
        assertThat(Scenarios.segments()).extracting(Scenario::name).containsExactly("segments", "trap-generation-starts",
                "trap-context-at-generation-start", "trap-stale-segment-tail");
        assertThat(Scenarios.isLarge("large")).isTrue();
        assertThat(Scenarios.isLarge("default")).isFalse();
    }

    @Test
    void theEdgeCaseScenariosPlaceWhatTheyDescribe() {
        EmulatedRuntime sizes = new RuntimeBuilder().build(Scenarios.named("size-edges").orElseThrow());
        GroundTruth t = sizes.groundTruth();
        java.util.Set<Long> sizesPlaced = new java.util.HashSet<>();
        t.forEachObject((address, mt, size, generation, heap, kind) -> sizesPlaced.add(size));
        assertThat(sizesPlaced).contains(22L, 28L, 24L, 25L, 29L, 32L, 60L, 64L);
        EmulatedRuntime contexts = new RuntimeBuilder().build(Scenarios.named("every-edge").orElseThrow());
        assertThat(contexts.groundTruth().contexts()).extracting(GroundTruth.ContextInfo::owner).contains("global", "heap 0 gen0");
        assertThat(contexts.groundTruth().contexts()).anyMatch(c -> c.pointer() == c.limit());
        assertThat(Scenarios.all()).hasSizeGreaterThanOrEqualTo(20).extracting(Scenario::name).doesNotHaveDuplicates();
        var chained = new RuntimeBuilder().build(Scenarios.named("chained-contexts").orElseThrow()).groundTruth().contexts();
        assertThat(chained).anySatisfy(a -> assertThat(chained).anyMatch(b -> b.pointer() == a.limit() + 24));
        var atStart = new RuntimeBuilder().build(Scenarios.named("context-at-region-start").orElseThrow()).groundTruth();
        assertThat(atStart.contexts()).anyMatch(c -> atStart.regions().stream().anyMatch(r -> r.generation() == 0 && r.mem() == c.pointer()));
    }

    @Test
    void everyEdgeHasEveryContextEdgeCase() {
        for (GcFlavor gc : GcFlavor.values()) {
            EmulatedRuntime runtime = new RuntimeBuilder().build(Scenarios.named("every-edge").orElseThrow().on(RuntimeVersion.NET9, gc));
            var regions = runtime.groundTruth().regions();
            var contexts = runtime.groundTruth().contexts();
            // §N: item N of the edge-case list, docs/reference/walker-semantics.md section 7
            assertThat(contexts).as("§10 exhausted").anyMatch(c -> c.pointer() == c.limit());
            assertThat(contexts).as("§11 at a region's start").anyMatch(c -> regions.stream().anyMatch(r -> r.generation() == 0 && r.mem() == c.pointer()));
            assertThat(contexts).as("§12 chained").anySatisfy(a -> assertThat(contexts).anyMatch(b -> b.pointer() == a.limit() + 24));
            assertThat(contexts).as("§16 at a region's end").anyMatch(c -> regions.stream().anyMatch(r -> r.reserved() == c.limit() + 24));
            assertThat(contexts).extracting(GroundTruth.ContextInfo::owner).as("§13, §14").contains("global", "heap 0 gen0");
            assertThat(InvariantChecker.check(runtime)).isEmpty();
        }
    }

    @Test
    void theInvariantCheckerFindsARegionDescriptorOutsideTheRegionMap() {
        EmulatedRuntime runtime = new RuntimeBuilder().build(Scenario.defaultScenario(RuntimeVersion.NET9, GcFlavor.WORKSTATION));
        GroundTruth.RegionInfo loh = runtime.groundTruth().regions().stream().filter(r -> r.generation() == 3).findFirst().orElseThrow();
        long size = runtime.layout().type("heap_segment").size().orElseThrow();
        runtime.memory().writeLong(loh.descriptor() + size, 0); // the entry of the LOH region's second basic region
        long last = io.clrheap.emulator.process.GcBookkeeping.of(runtime.layout())
                .entry(io.clrheap.emulator.process.ProcessLayout.GC_RESERVE + io.clrheap.emulator.process.ProcessLayout.GC_RESERVE_SIZE - (4L << 20));
        runtime.memory().writeLong(last, 0x1234); // the entry of the GC range's last basic region, where no region is
        assertThat(InvariantChecker.check(runtime))
                .anyMatch(v -> v.contains("basic region 1 of its region, says allocated 0x0, not -1"))
                .anyMatch(v -> v.contains(String.format("the region map entry 0x%x", last)));
    }

    @Test
    void theSameScenarioGivesTheSameTypeNamesInTheSameOrder() {
        Scenario s = Scenarios.named("user-types").orElseThrow();
        assertThat(new RuntimeBuilder().build(s).typeNames().entrySet().stream().map(Object::toString).toList())
                .isEqualTo(new RuntimeBuilder().build(s).typeNames().entrySet().stream().map(Object::toString).toList());
    }

    @Test
    void theInvariantCheckerFindsAnObjectThatIsNotWhereTheGroundTruthSays() {
        EmulatedRuntime runtime = new RuntimeBuilder().build(Scenario.defaultScenario(RuntimeVersion.NET8, GcFlavor.SERVER));
        long[] victim = new long[1];
        runtime.groundTruth().forEachObject((address, mt, size, generation, heap, kind) -> {
            if (victim[0] == 0 && generation == 1 && kind == GroundTruth.Kind.OBJECT) {
                victim[0] = address;
            }
        });
        runtime.memory().writeLong(victim[0], 0x1234_0000L);
        assertThat(InvariantChecker.check(runtime)).anyMatch(v -> v.contains(String.format("object 0x%x: memory says MethodTable 0x12340000", victim[0])));
    }

    @Test
    void theSameScenarioAndSeedGiveTheSameBytes() throws Exception {
        Scenario s = Scenario.defaultScenario(RuntimeVersion.NET10, GcFlavor.SERVER);
        assertThat(digest(new RuntimeBuilder().build(s))).isEqualTo(digest(new RuntimeBuilder().build(s)));
        Scenario other = s.toBuilder().seed(s.seed() + 1).build();
        assertThat(digest(new RuntimeBuilder().build(other))).isNotEqualTo(digest(new RuntimeBuilder().build(s)));
        for (String name : new String[] {"collected", "user-types", "every-edge"}) {
            Scenario program = Scenarios.named(name).orElseThrow();
            assertThat(digest(new RuntimeBuilder().build(program))).as(name).isEqualTo(digest(new RuntimeBuilder().build(program)));
        }
    }

    private static String digest(EmulatedRuntime runtime) throws Exception {
        return WindowsPlatformTest.digestOutside(runtime, 0, 0); // nothing left out
    }

    @Test
    void theRuntimeModuleIsAnElfSharedObjectMappedAtItsBase() {
        EmulatedRuntime runtime = new RuntimeBuilder().build(Scenario.defaultScenario(RuntimeVersion.NET9, GcFlavor.WORKSTATION));
        var first = runtime.mappings().get(0);
        assertThat(first.path()).endsWith("/9.0.1/libcoreclr.so");
        assertThat(first.fileOffset()).isZero();
        assertThat(runtime.memory().readInt(first.start())).isEqualTo(0x464c457f); // "\x7fELF"
        assertThat(runtime.memory().readShort(first.start() + 16)).isEqualTo((short) 3); // ET_DYN
    }
}
