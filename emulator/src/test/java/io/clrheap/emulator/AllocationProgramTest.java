package io.clrheap.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import io.clrheap.emulator.scenario.TypeDef;
import io.clrheap.emulator.scenario.Feature;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.scenario.Step;
import io.clrheap.emulator.truth.GroundTruth;

/** A scenario's allocation program: typed allocations where the step says, collections that sweep and promote. */
class AllocationProgramTest {

    /** One placed object, as the ground truth has it. */
    record Placed(long address, long mt, long size, int generation, int heap, GroundTruth.Kind kind) {
    }

    private static List<Placed> objects(EmulatedRuntime runtime) {
        List<Placed> list = new ArrayList<>();
        runtime.groundTruth().forEachObject((address, mt, size, generation, heap, kind) -> list.add(new Placed(address, mt, size, generation, heap, kind)));
        return list;
    }

    private static Scenario.Builder empty(String name) {
        return Scenario.builder(name).runtime(RuntimeVersion.NET8).gc(GcFlavor.WORKSTATION).heaps(1).threads(1);
    }

    private static EmulatedRuntime build(Scenario s) {
        EmulatedRuntime runtime = new RuntimeBuilder().build(s);
        assertThat(InvariantChecker.check(runtime)).isEmpty();
        return runtime;
    }

    private static long methodTable(EmulatedRuntime runtime, String type) {
        return runtime.typeNames().entrySet().stream().filter(e -> e.getValue().equals(type)).map(Map.Entry::getKey).findFirst().orElseThrow();
    }

    @Test
    void objectsThatAllDieInAGen0CollectionLeaveNothingAndTheirRegionIsReleased() {
        EmulatedRuntime runtime = build(empty("all-die")
                .allocate(new Step.Allocate("Node", 100, Step.Lengths.fixed(0), Step.Where.GEN0, -1, 1.0)).collect(0).build());
        assertThat(objects(runtime)).noneMatch(o -> o.generation() == 0 || o.generation() == 1);
        // the emptied gen0 region was released; gen1 keeps its one (empty) region, gen0 is a fresh one
        assertThat(runtime.groundTruth().regions()).filteredOn(r -> r.generation() == 1).singleElement()
                .satisfies(r -> assertThat(r.end()).isEqualTo(r.mem()));
        assertThat(runtime.groundTruth().regions()).filteredOn(r -> r.generation() == 0).singleElement()
                .satisfies(r -> assertThat(r.end()).isEqualTo(r.mem()));
    }

    @Test
    void survivorsOfAGen0CollectionArePromotedInPlaceAndTheRegionEndsAfterTheLast() {
        Scenario before = empty("survive").allocate(new Step.Allocate("Node", 100, Step.Lengths.fixed(0), Step.Where.GEN0, -1, 0)).build();
        Scenario after = before.toBuilder().collect(0).build();
        List<Long> nodesBefore = objects(build(before)).stream().filter(o -> o.kind() == GroundTruth.Kind.OBJECT && o.generation() == 0)
                .map(Placed::address).toList();
        EmulatedRuntime collected = build(after);
        List<Placed> promoted = objects(collected).stream().filter(o -> o.generation() == 1).toList();
        assertThat(promoted).allMatch(o -> o.kind() == GroundTruth.Kind.OBJECT).extracting(Placed::address)
                .containsExactlyElementsOf(nodesBefore);
        // the given-up rest of the context was after the last survivor: it is end-of-region space, not a free object
        assertThat(collected.groundTruth().regions()).anyMatch(r -> r.generation() == 1 && r.end() == promoted.getLast().address() + 48);
    }

    @Test
    void aSweepMergesNeighbouringDeadObjectsIntoOneFreeObject() {
        EmulatedRuntime runtime = build(empty("merge").seed(7)
                .allocate(new Step.Allocate("Leaf", 2000, Step.Lengths.fixed(0), Step.Where.GEN0, -1, 0.5)).collect(0).build());
        List<Placed> gen1 = objects(runtime).stream().filter(o -> o.generation() == 1).toList();
        assertThat(gen1).filteredOn(o -> o.kind() == GroundTruth.Kind.FREE).isNotEmpty();
        for (int i = 1; i < gen1.size(); i++) {
            boolean bothFree = gen1.get(i).kind() == GroundTruth.Kind.FREE && gen1.get(i - 1).kind() == GroundTruth.Kind.FREE;
            assertThat(bothFree).as("free objects at 0x%x and 0x%x are neighbours", gen1.get(i - 1).address(), gen1.get(i).address()).isFalse();
        }
        assertThat(gen1.getLast().kind()).isEqualTo(GroundTruth.Kind.OBJECT); // nothing after a region's last survivor
        long live = gen1.stream().filter(o -> o.kind() == GroundTruth.Kind.OBJECT).count();
        assertThat(live).isBetween(850L, 1150L); // half of 2,000 survive, give or take
    }

    @Test
    void aDeadLohObjectBecomesFreeWithItsPaddingWhileALiveOneKeepsItsPadding() {
        EmulatedRuntime runtime = build(empty("loh").objects(0, 0, 0, 0, 0)
                .allocate(new Step.Allocate("System.Byte[]", 1, Step.Lengths.fixed(100_000), Step.Where.LOH, -1, 1.0))
                .allocate(new Step.Allocate("System.Byte[]", 1, Step.Lengths.fixed(90_000), Step.Where.LOH, -1, 0))
                .collect(2).build());
        List<GroundTruth.Kind> loh = objects(runtime).stream().filter(o -> o.generation() == 3).map(Placed::kind).toList();
        assertThat(loh).containsExactly(GroundTruth.Kind.FREE, GroundTruth.Kind.PADDING, GroundTruth.Kind.OBJECT);
        Placed free = objects(runtime).stream().filter(o -> o.generation() == 3).findFirst().orElseThrow();
        assertThat(free.size()).isEqualTo(32 + ((24 + 100_000 + 7) & -8L));
    }

    @Test
    void aGen1CollectionPromotesGen1RegionsToGen2AndGen0RegionsToGen1() {
        EmulatedRuntime runtime = build(empty("two").objects(0, 10, 0, 0, 0)
                .allocate(new Step.Allocate("Pair", 10, Step.Lengths.fixed(0), Step.Where.GEN0, -1, 0)).collect(1).build());
        long pair = methodTable(runtime, "Pair");
        List<Placed> live = objects(runtime).stream().filter(o -> o.kind() == GroundTruth.Kind.OBJECT).toList();
        // the 10 Pairs allocated in gen0 are gen1 now; the 10 objects of the old gen1 are gen2
        assertThat(live).filteredOn(o -> o.generation() == 1).hasSize(10).allMatch(o -> o.mt() == pair);
        assertThat(live).filteredOn(o -> o.generation() == 2).hasSize(10);
    }

    @Test
    void smallObjectAllocationsOf85000BytesOrMoreGoToTheLoh() {
        EmulatedRuntime runtime = build(empty("big").allocate(new Step.Allocate("System.Byte[]", 3, Step.Lengths.fixed(85_000), Step.Where.GEN0, -1, 0)).build());
        assertThat(objects(runtime)).filteredOn(o -> o.size() == 85_024).hasSize(3).allMatch(o -> o.generation() == 3);
    }

    @Test
    void gen0SpillsIntoNewRegionsAndOlderContextsStayLive() {
        EmulatedRuntime runtime = build(Scenarios.named("many-regions").orElseThrow());
        var regions = runtime.groundTruth().regions();
        assertThat(regions).filteredOn(r -> r.generation() == 0).hasSizeGreaterThan(2);
        assertThat(regions).filteredOn(r -> r.generation() == 2 && !r.frozen()).hasSizeGreaterThan(2);
        // some thread still allocates in a gen0 region that is no longer its heap's ephemeral one, the last gen0 region listed (§17)
        java.util.Map<Integer, GroundTruth.RegionInfo> ephemeral = new java.util.HashMap<>();
        regions.stream().filter(r -> r.generation() == 0).forEach(r -> ephemeral.put(r.heap(), r));
        assertThat(runtime.groundTruth().contexts()).anyMatch(c -> regions.stream().anyMatch(r -> r.generation() == 0
                && !ephemeral.containsValue(r) && c.pointer() >= r.mem() && c.pointer() < r.end()));
    }

    @Test
    void anLohObjectLargerThanALargeRegionGetsARegionOfItsOwn() {
        EmulatedRuntime runtime = build(Scenarios.named("huge-loh").orElseThrow());
        assertThat(runtime.groundTruth().regions()).filteredOn(r -> r.generation() == 3)
                .anySatisfy(r -> assertThat(r.reserved() - r.start()).isEqualTo(64L << 20).isGreaterThan(r.end() - r.mem()));
        assertThat(objects(runtime)).anyMatch(o -> o.size() == 24 + (40L << 20));
    }

    @Test
    void aTypeWithReferencesHasItsGcDescriptorJustBeforeItsMethodTable() {
        EmulatedRuntime runtime = build(Scenarios.named("user-types").orElseThrow());
        var memory = runtime.memory();
        long order = methodTable(runtime, "Shop.Order");          // BaseSize 64, 3 reference fields from offset 8
        assertThat(memory.readLong(order - 8)).isEqualTo(1);       // one series (gcdesc.h: CGCDesc::GetNumSeries)
        assertThat(memory.readLong(order - 16)).isEqualTo(8);      // startoffset
        assertThat(memory.readLong(order - 24)).isEqualTo(3 * 8 - 64); // seriessize, adjusted by -BaseSize
        assertThat(memory.readInt(order) & TypeDef.CONTAINS_GC_POINTERS).isNotZero();
        long array = methodTable(runtime, "Shop.Order[]");
        assertThat(memory.readLong(array - 16)).isEqualTo(16);     // an array's elements start after MT and length
        assertThat(memory.readLong(array - 24)).isEqualTo(-24);    // + ObjectSize = the elements' bytes
        long money = methodTable(runtime, "Shop.Money");
        assertThat(memory.readInt(money) & 0x000f0000).isEqualTo(0x00040000); // Category_ValueType
        assertThat(memory.readInt(money) & TypeDef.CONTAINS_GC_POINTERS).isZero();
    }

    @Test
    void referenceFieldsPointAtObjects() {
        EmulatedRuntime runtime = build(Scenarios.named("user-types").orElseThrow());
        long order = methodTable(runtime, "Shop.Order");
        java.util.Set<Long> starts = new java.util.HashSet<>();
        List<Placed> placed = objects(runtime);
        placed.forEach(o -> starts.add(o.address()));
        long checked = placed.stream().filter(o -> o.mt() == order).limit(200).filter(o -> {
            long ref = runtime.memory().readLong(o.address() + 8);
            assertThat(ref == 0 || starts.contains(ref)).as("reference 0x%x from 0x%x", ref, o.address()).isTrue();
            return ref != 0;
        }).count();
        assertThat(checked).isPositive();
    }

    @Test
    void aStepForAHeapTheScenarioDoesNotHaveIsRefused() {
        assertThatThrownBy(() -> Scenario.builder("x").heaps(2).allocate(new Step.Allocate("Node", 1, Step.Lengths.fixed(0), Step.Where.GEN2, 2, 0)).build())
                .hasMessageContaining("heap 2: the scenario has 2 heap(s)");
    }

    @Test
    void aFreeGapOfFourGibibytesOrMoreIsSplitIntoFreeObjectsWhoseLengthsFit32Bits() {
        EmulatedRuntime runtime = build(empty("huge-gap")
                .allocate(new Step.Allocate("System.Int64[]", 1, Step.Lengths.fixed(600_000_000), Step.Where.LOH, -1, 1.0))
                .allocate(new Step.Allocate("System.Byte[]", 1, Step.Lengths.fixed(100_000), Step.Where.LOH, -1, 0))
                .collect(2).build());
        List<Placed> loh = objects(runtime).stream().filter(o -> o.generation() == 3).toList();
        List<Placed> free = loh.stream().filter(o -> o.kind() == GroundTruth.Kind.FREE).toList();
        assertThat(free).hasSizeGreaterThan(1).allMatch(o -> o.size() - 24 < (1L << 32));
        long gap = 32 + 24 + 8L * 600_000_000; // the dead array with its padding
        assertThat(free.stream().mapToLong(o -> (o.size() + 7) & -8L).sum()).isEqualTo(gap);
        assertThat(loh.getLast().kind()).isEqualTo(GroundTruth.Kind.OBJECT);
    }

    @Test
    void repeatedCollectionsReleaseEmptiedRegionsInsteadOfPilingThemUp() {
        Scenario.Builder b = Scenario.builder("churn").heaps(64).threads(64).handlesPerKind(0);
        for (int i = 0; i < 200; i++) {
            b.allocate(new Step.Allocate("Leaf", 640, Step.Lengths.fixed(0), Step.Where.GEN0, -1, 1.0)).collect(i % 3);
        }
        EmulatedRuntime runtime = build(b.build());
        // nothing survives: a region per generation and heap (and the frozen segment), never one per collection
        assertThat(runtime.groundTruth().regions()).hasSize(64 * 5 + 1);
    }

    @Test
    void frozenStringsGrowNewSegmentsEachTwiceTheSizeAtTheHeadOfHeapZerosGen2List() {
        EmulatedRuntime runtime = build(empty("frozen").frozenStrings(0)
                .allocate(new Step.Allocate("System.String", 200, Step.Lengths.fixed(30_000), Step.Where.FROZEN, -1, 0)).build());
        List<GroundTruth.RegionInfo> frozen = runtime.groundTruth().regions().stream().filter(GroundTruth.RegionInfo::frozen).toList();
        assertThat(frozen).hasSize(2); // 200 strings of 60 KB: 12 MB, a 4 MiB segment then an 8 MiB one
        assertThat(frozen.get(0).reserved() - frozen.get(0).start()).isEqualTo(8L << 20); // the newest first
        assertThat(frozen.get(1).reserved() - frozen.get(1).start()).isEqualTo(4L << 20);
        assertThat(frozen).allMatch(r -> r.mem() == r.start() + 8);
    }

    @Test
    void aStringTooLargeToFreezeIsRefused() {
        assertThatThrownBy(() -> new RuntimeBuilder().build(empty("big-literal")
                .allocate(new Step.Allocate("System.String", 1, Step.Lengths.fixed(40_000), Step.Where.FROZEN, -1, 0)).build()))
                .hasMessageContaining("objects over 65,536 bytes are never frozen");
    }

    @Test
    void edgeCasesThatNeedThreadsOfTheirOwnAreRefusedWithTooFewThreads() {
        assertThatThrownBy(() -> Scenario.builder("few").threads(2)
                .features(java.util.Set.of(Feature.CHAINED_CONTEXTS, Feature.EXHAUSTED_CONTEXT)).build())
                .hasMessageContaining("need 3 threads of their own; the scenario has 2");
    }

    @Test
    void lengthsBeyondWhatTheRuntimeAllowsAreRefused() {
        assertThatThrownBy(() -> new RuntimeBuilder().build(empty("long").allocate(new Step.Allocate("System.String", 1,
                Step.Lengths.fixed(0x40000000L), Step.Where.LOH, -1, 0)).build())).hasMessageContaining("holds at most 1,073,741,791");
    }

    @Test
    void aBuildThatWouldWriteMoreThanItsMemoryBudgetIsRefused() {
        Scenario big = empty("budget").allocate(new Step.Allocate("System.String", 2000, Step.Lengths.fixed(20_000), Step.Where.GEN2, -1, 0)).build();
        assertThatThrownBy(() -> new RuntimeBuilder().memoryBudget(16L << 20).build(big))
                .hasMessageContaining("more than its memory budget of 16 MiB");
    }
}
