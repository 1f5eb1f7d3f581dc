package io.clrheap.emulator.threads;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.InvariantChecker;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.Scenarios;
import io.clrheap.emulator.process.ProcessLayout;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.truth.CpuRegister;
import io.clrheap.emulator.truth.GroundTruth;
import io.clrheap.emulator.truth.StackRoot;
import io.clrheap.emulator.truth.ThreadStack;
import io.clrheap.memory.MemoryRange;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The emulated threads' stacks: each thread a stack of its own in a mapping of its own, frames in its live part holding
 * the ground truth's stack roots and nothing else that points into the heap, stale references below rsp, one register
 * root; the stack-only objects live because of the stacks alone; the same scenario and seed give the same stacks.
 */
class ThreadStacksTest {

    private static final EmulatedRuntime PROCESS = new RuntimeBuilder().build(Scenarios.named("object-graph").orElseThrow()
            .on(RuntimeVersion.NET8, GcFlavor.SERVER));

    private static Map<Long, Long> objectSizes(EmulatedRuntime process) {
        Map<Long, Long> sizes = new HashMap<>();
        process.groundTruth().forEachObject((address, mt, size, generation, heap, kind) -> {
            if (kind == GroundTruth.Kind.OBJECT) {
                sizes.put(address, size);
            }
        });
        return sizes;
    }

    @Test
    void everyThreadOfTheThreadStoreHasAStackOfItsOwnInAMappingOfItsOwn() {
        GroundTruth truth = PROCESS.groundTruth();
        List<ThreadStack> stacks = truth.stacks();
        assertThat(stacks).extracting(ThreadStack::osId).containsExactlyElementsOf(truth.threads().stream().map(GroundTruth.ThreadInfo::osId).toList());
        List<MemoryRange> ranges = PROCESS.memory().touchedRanges();
        for (ThreadStack s : stacks) {
            assertThat(s.base() - s.limit()).isEqualTo(ProcessLayout.THREAD_STACK_SIZE);
            assertThat(s.rsp()).isBetween(s.limit(), s.base() - 8);
            assertThat(s.register(CpuRegister.RBP)).as("rbp: the innermost frame's saved rbp slot").isBetween(s.rsp(), s.base() - 8);
            assertThat(s.register(CpuRegister.RIP)).isBetween(ProcessLayout.MODULE_BASE, ProcessLayout.MODULE_BASE + (1 << 20));
            // the range of the process's memory that holds rsp ends where the stack does: what a walker of an ELF core takes as its end
            assertThat(ranges).filteredOn(r -> Long.compareUnsigned(s.rsp() - r.start(), r.length()) < 0)
                    .singleElement().satisfies(r -> assertThat(r.start() + r.length()).isEqualTo(s.base()));
        }
    }

    @Test
    void everyStackRootsSlotHoldsItsValueInsideItsObject() {
        GroundTruth truth = PROCESS.groundTruth();
        Map<Long, Long> sizes = objectSizes(PROCESS);
        Map<Long, ThreadStack> byThread = new HashMap<>();
        truth.stacks().forEach(s -> byThread.put(s.osId(), s));
        int interior = 0;
        int registers = 0;
        for (StackRoot r : truth.stackRoots()) {
            ThreadStack s = byThread.get(r.osId());
            assertThat(sizes).as(r.toString()).containsKey(r.object());
            assertThat(r.value() - r.object()).as(r.toString()).isNotNegative().isLessThan(sizes.get(r.object()));
            if (r.register() == null) {
                assertThat(r.slot()).as(r.toString()).isBetween(s.rsp(), s.base() - 8);
                assertThat(PROCESS.memory().readLong(r.slot())).as(r.toString()).isEqualTo(r.value());
                assertThat(r.root()).isEqualTo("0x" + Long.toHexString(r.slot()));
            } else {
                registers++;
                assertThat(s.register(r.register())).isEqualTo(r.value());
                assertThat(r.root()).isEqualTo(r.register().id());
            }
            interior += r.interior() ? 1 : 0;
        }
        assertThat(interior).as("interior pointers").isGreaterThanOrEqualTo(truth.threads().size());
        assertThat(registers).as("register roots").isOne();
    }

    @Test
    void noOtherWordOfALiveStackAndNoOtherRegisterPointsIntoTheHeap() {
        GroundTruth truth = PROCESS.groundTruth();
        Set<Long> rootSlots = new HashSet<>();
        truth.stackRoots().stream().filter(r -> r.register() == null).forEach(r -> rootSlots.add(r.slot()));
        List<GroundTruth.RegionInfo> regions = truth.regions();
        long words = 0;
        for (ThreadStack s : truth.stacks()) {
            for (long slot = s.rsp(); slot < s.base(); slot += 8, words++) {
                long value = PROCESS.memory().readLong(slot);
                if (!rootSlots.contains(slot)) {
                    assertThat(inHeap(regions, value)).as("slot 0x%x holds 0x%x", slot, value).isFalse();
                }
            }
            for (CpuRegister reg : CpuRegister.values()) {
                boolean root = truth.stackRoots().stream().anyMatch(r -> r.osId() == s.osId() && r.register() == reg);
                if (!root) {
                    assertThat(inHeap(regions, s.register(reg))).as("%s of thread %d", reg.id(), s.osId()).isFalse();
                }
            }
        }
        assertThat(words).isGreaterThan(rootSlots.size());
        assertThat(InvariantChecker.check(PROCESS)).isEmpty();
    }

    @Test
    void staleSlotsBelowRspHoldDeadObjects() {
        long[] live = PROCESS.objectGraph().live();
        Map<Long, Long> sizes = objectSizes(PROCESS);
        int stale = 0;
        for (ThreadStack s : PROCESS.groundTruth().stacks()) {
            for (long slot : s.staleSlots()) {
                assertThat(slot).isBetween(s.limit(), s.rsp() - 8);
                long value = PROCESS.memory().readLong(slot);
                assertThat(sizes).as("0x%x holds an object's start", slot).containsKey(value);
                assertThat(Arrays.binarySearch(live, value)).as("0x%x is dead", value).isNegative();
                stale++;
            }
        }
        assertThat(stale).isEqualTo(2 * PROCESS.groundTruth().threads().size());
    }

    @Test
    void someStackRootsKeepAliveObjectsNothingElseReaches() {
        GroundTruth truth = PROCESS.groundTruth();
        long[] live = PROCESS.objectGraph().live();
        long[] liveWithout = PROCESS.objectGraph().liveWithoutStacks();
        List<Long> onlyStacks = new ArrayList<>();
        for (StackRoot r : truth.stackRoots()) {
            assertThat(Arrays.binarySearch(live, r.object())).as(r.toString()).isNotNegative();
            if (Arrays.binarySearch(liveWithout, r.object()) < 0) {
                onlyStacks.add(r.object());
            }
        }
        // two stack-only references, an interior one per thread and thread 0's register
        assertThat(onlyStacks).hasSize(3 * truth.threads().size() + 1);
        assertThat(live.length).isGreaterThan(liveWithout.length);
        assertThat(truth.stackRoots()).anyMatch(r -> Arrays.binarySearch(liveWithout, r.object()) >= 0);
    }

    @Test
    void theSameScenarioAndSeedGiveTheSameStacksAndAnotherSeedOthers() {
        Scenario scenario = PROCESS.scenario();
        EmulatedRuntime again = new RuntimeBuilder().build(scenario);
        assertThat(again.groundTruth().stacks()).isEqualTo(PROCESS.groundTruth().stacks());
        assertThat(again.groundTruth().stackRoots()).isEqualTo(PROCESS.groundTruth().stackRoots());
        for (ThreadStack s : PROCESS.groundTruth().stacks()) {
            byte[] a = new byte[(int) (s.base() - s.limit())];
            byte[] b = new byte[a.length];
            PROCESS.memory().read(s.limit(), a, 0, a.length);
            again.memory().read(s.limit(), b, 0, b.length);
            assertThat(b).isEqualTo(a);
        }
        EmulatedRuntime other = new RuntimeBuilder().build(scenario.toBuilder().seed(scenario.seed() + 1).build());
        assertThat(other.groundTruth().stackRoots()).isNotEqualTo(PROCESS.groundTruth().stackRoots());
    }

    @Test
    void theWeakRootsTrapsWeakHandlesReachObjectsThatStayDead() {
        EmulatedRuntime trap = new RuntimeBuilder().build(Scenarios.named("trap-weak-roots").orElseThrow());
        long[] live = trap.objectGraph().live();
        Set<Long> strong = new HashSet<>();
        trap.groundTruth().handles().stream().filter(h -> !h.type().startsWith("weak") && !h.type().equals("dependent")).forEach(h -> strong.add(h.target()));
        List<Long> weakOnly = trap.groundTruth().handles().stream().filter(h -> h.type().startsWith("weak"))
                .map(GroundTruth.HandleInfo::target).filter(t -> Arrays.binarySearch(live, t) < 0 && !strong.contains(t)).toList();
        assertThat(weakOnly).hasSizeGreaterThanOrEqualTo(8);
        assertThat(InvariantChecker.check(trap)).isEmpty();
    }

    private static boolean inHeap(List<GroundTruth.RegionInfo> regions, long value) {
        return regions.stream().anyMatch(r -> Long.compareUnsigned(value - r.start(), r.reserved() - r.start()) < 0);
    }
}
