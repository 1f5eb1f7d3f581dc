package io.clrheap.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.memory.WritableMemory;
import io.clrheap.process.NativeCallException;
import io.clrheap.process.NativeCalls;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import io.clrheap.emulator.truth.GroundTruth;

/** Native calls into an emulated process: the GC's vtable functions an in-process walker calls, run over its memory. */
class NativeCallsTest {

    private static final String[] GENERATIONS = {"gen0", "gen1", "gen2", "loh", "poh"};

    private static EmulatedRuntime build(String scenario, RuntimeVersion version, GcFlavor gc) {
        return new RuntimeBuilder().build(Scenarios.named(scenario).orElseThrow().on(version, gc));
    }

    /** What in-process code gets from GCHeapUtilities::GetGCHeap(): any GCHeap object works as this. */
    private static long someGcHeap(EmulatedRuntime runtime) {
        return runtime.gcStatics().globalGcHeap();
    }

    private static long slotCode(EmulatedRuntime runtime, String slotConstant) {
        return runtime.gcStatics().codeOf((int) runtime.layout().constant(slotConstant));
    }

    private record Reported(long generation, long mem, long allocated, long reserved) {
    }

    private static List<Reported> descrGenerations(NativeCalls calls, EmulatedRuntime runtime, long gcHeap) {
        List<Reported> reported = new ArrayList<>();
        long callback = calls.callback(args -> {
            assertThat(args[0]).as("context").isEqualTo(0x1234);
            reported.add(new Reported(args[1], args[2], args[3], args[4]));
            return 0;
        });
        calls.call(slotCode(runtime, "IGCHeap.DiagDescrGenerations.slot"), gcHeap, callback, 0x1234);
        return reported;
    }

    @ParameterizedTest
    @EnumSource(RuntimeVersion.class)
    void diagDescrGenerationsReportsEveryReadWriteRegionHeapByHeapFromGeneration4DownTo0(RuntimeVersion version) {
        EmulatedRuntime runtime = build("many-regions", version, GcFlavor.SERVER);
        NativeCalls calls = runtime.nativeCalls();
        List<Reported> reported = descrGenerations(calls, runtime, someGcHeap(runtime));
        List<Reported> expected = new ArrayList<>();
        List<GroundTruth.RegionInfo> placed = runtime.groundTruth().regions().stream().filter(r -> !r.frozen()).toList();
        for (int heap = 0; heap < runtime.scenario().heaps(); heap++) {
            for (int gen = 4; gen >= 0; gen--) {
                for (GroundTruth.RegionInfo r : placed) {
                    if (r.heap() == heap && r.generation() == gen) {
                        // the ephemeral region's heap_segment.allocated lags at mem (docs/reference/discovery.md section 6): reported as it is
                        boolean ephemeral = gen == 0 && placed.stream().filter(p -> p.heap() == r.heap() && p.generation() == 0)
                                .max(Comparator.comparingInt(p -> placed.indexOf(p))).orElseThrow() == r;
                        expected.add(new Reported(gen, r.mem(), ephemeral ? r.mem() : r.end(), r.reserved()));
                    }
                }
            }
        }
        assertThat(reported).hasSizeGreaterThan(2 * 5).containsExactlyElementsOf(expected);
    }

    @Test
    void diagDescrGenerationsUnderWorkstationGcReportsTheOneHeap() {
        EmulatedRuntime runtime = build("default", RuntimeVersion.NET9, GcFlavor.WORKSTATION);
        List<Reported> reported = descrGenerations(runtime.nativeCalls(), runtime, someGcHeap(runtime));
        assertThat(reported).extracting(Reported::generation).isSortedAccordingTo(Comparator.reverseOrder());
        assertThat(reported).hasSize((int) runtime.groundTruth().regions().stream().filter(r -> !r.frozen()).count());
    }

    @Test
    void diagDescrGenerationsSkipsReadOnlySegments() {
        EmulatedRuntime runtime = build("frozen-segments", RuntimeVersion.NET8, GcFlavor.SERVER);
        List<Long> frozen = runtime.groundTruth().regions().stream().filter(GroundTruth.RegionInfo::frozen).map(GroundTruth.RegionInfo::mem).toList();
        assertThat(frozen).hasSize(3);
        assertThat(descrGenerations(runtime.nativeCalls(), runtime, someGcHeap(runtime))).extracting(Reported::mem).doesNotContainAnyElementsOf(frozen);
    }

    private static long gen2StartSegment(WritableMemory memory, EmulatedRuntime runtime) {
        RuntimeLayout l = runtime.layout();
        long heap0 = memory.readPointer(memory.readPointer(runtime.gcStatics().heapArray()));
        return memory.readPointer(heap0 + l.offset("gc_heap", "generation_table") + 2 * l.type("generation").size().orElseThrow()
                + l.offset("generation", "start_segment"));
    }

    private static long register(NativeCalls calls, EmulatedRuntime runtime, long gcHeap, long mem, long allocated) {
        RuntimeLayout l = runtime.layout();
        long info = calls.allocate(l.type("segment_info").size().orElseThrow());
        calls.memory().writeLong(info + l.offset("segment_info", "pvMem"), mem);
        calls.memory().writeLong(info + l.offset("segment_info", "ibFirstObject"), 8);
        calls.memory().writeLong(info + l.offset("segment_info", "ibAllocated"), allocated);
        calls.memory().writeLong(info + l.offset("segment_info", "ibCommit"), allocated);
        calls.memory().writeLong(info + l.offset("segment_info", "ibReserved"), allocated);
        return calls.call(slotCode(runtime, "IGCHeap.RegisterFrozenSegment.slot"), gcHeap, info);
    }

    @Test
    void registerFrozenSegmentPutsANewReadOnlySegmentAtTheHeadOfHeap0sGen2List() {
        EmulatedRuntime runtime = build("frozen-segments", RuntimeVersion.NET10, GcFlavor.SERVER);
        NativeCalls calls = runtime.nativeCalls();
        RuntimeLayout l = runtime.layout();
        long oldHead = gen2StartSegment(calls.memory(), runtime);
        long handle = register(calls, runtime, someGcHeap(runtime), 0x7000_0000_0000L, 0x100);
        assertThat(gen2StartSegment(calls.memory(), runtime)).isEqualTo(handle);
        WritableMemory m = calls.memory();
        assertThat(m.readPointer(handle + l.offset("heap_segment", "next"))).isEqualTo(oldHead);
        assertThat(m.readLong(handle + l.offset("heap_segment", "flags"))).isEqualTo(l.constant("heap_segment.flags.readonly"));
        assertThat(m.readPointer(handle + l.offset("heap_segment", "mem"))).isEqualTo(0x7000_0000_0008L);
        assertThat(m.readPointer(handle + l.offset("heap_segment", "allocated"))).isEqualTo(0x7000_0000_0100L);
    }

    @Test
    void unregisterFrozenSegmentTakesItOutOfTheListAgain() {
        EmulatedRuntime runtime = build("frozen-segments", RuntimeVersion.NET8, GcFlavor.SERVER);
        NativeCalls calls = runtime.nativeCalls();
        long gcHeap = someGcHeap(runtime);
        long oldHead = gen2StartSegment(calls.memory(), runtime);
        long first = register(calls, runtime, gcHeap, 0, 0);
        long second = register(calls, runtime, gcHeap, 0, 0);
        // the older one, now second in the list, comes out from the middle
        calls.call(slotCode(runtime, "IGCHeap.UnregisterFrozenSegment.slot"), gcHeap, first);
        assertThat(gen2StartSegment(calls.memory(), runtime)).isEqualTo(second);
        assertThat(calls.memory().readPointer(second + runtime.layout().offset("heap_segment", "next"))).isEqualTo(oldHead);
        calls.call(slotCode(runtime, "IGCHeap.UnregisterFrozenSegment.slot"), gcHeap, second);
        assertThat(gen2StartSegment(calls.memory(), runtime)).isEqualTo(oldHead);
        assertThatThrownBy(() -> calls.call(slotCode(runtime, "IGCHeap.UnregisterFrozenSegment.slot"), gcHeap, second))
                .isInstanceOf(NativeCallException.class).hasMessageContaining("not in heap 0's gen2 list");
    }

    @Test
    void aSessionNeverChangesTheProcessItCalls() throws Exception {
        EmulatedRuntime runtime = build("default", RuntimeVersion.NET8, GcFlavor.SERVER);
        String before = WindowsPlatformTest.digestOutside(runtime, 0, 0);
        NativeCalls calls = runtime.nativeCalls();
        long head = gen2StartSegment(calls.memory(), runtime);
        register(calls, runtime, someGcHeap(runtime), 0, 0);
        assertThat(gen2StartSegment(calls.memory(), runtime)).isNotEqualTo(head);
        assertThat(gen2StartSegment(runtime.memory(), runtime)).isEqualTo(head);
        assertThat(gen2StartSegment(runtime.nativeCalls().memory(), runtime)).as("another session").isEqualTo(head);
        assertThat(WindowsPlatformTest.digestOutside(runtime, 0, 0)).isEqualTo(before);
    }

    @Test
    void callingAnAddressWithoutCodeFailsWithThatAddress() {
        EmulatedRuntime runtime = build("min-object", RuntimeVersion.NET8, GcFlavor.SERVER);
        assertThatThrownBy(() -> runtime.nativeCalls().call(0x1234_5678L))
                .isInstanceOfSatisfying(NativeCallException.class, e -> assertThat(e.address()).isEqualTo(0x1234_5678L))
                .hasMessageContaining("0x12345678").hasMessageContaining("no code");
    }

    @Test
    void aSlotTheEmulatorDoesNotRunFailsNamingTheSlot() {
        EmulatedRuntime runtime = build("min-object", RuntimeVersion.NET8, GcFlavor.SERVER);
        assertThatThrownBy(() -> runtime.nativeCalls().call(runtime.gcStatics().codeOf(28), someGcHeap(runtime), 2))
                .isInstanceOf(NativeCallException.class).hasMessageContaining("slot 28 is not emulated");
    }

    @Test
    void aGcFunctionCalledOnSomethingThatIsNotAGcHeapFails() {
        EmulatedRuntime runtime = build("min-object", RuntimeVersion.NET9, GcFlavor.SERVER);
        NativeCalls calls = runtime.nativeCalls();
        long notAHeap = calls.allocate(64);
        assertThatThrownBy(() -> calls.call(slotCode(runtime, "IGCHeap.DiagDescrGenerations.slot"), notAHeap, calls.callback(a -> 0), 0))
                .isInstanceOf(NativeCallException.class).hasMessageContaining("not a GCHeap");
        assertThatThrownBy(() -> calls.call(slotCode(runtime, "IGCHeap.DiagDescrGenerations.slot"), someGcHeap(runtime)))
                .isInstanceOf(NativeCallException.class).hasMessageContaining("takes this and 2 arguments");
    }

    @Test
    void allocatedBlocksAreZeroedMemoryOfTheSessionAndFreeingTwiceFails() {
        EmulatedRuntime runtime = build("min-object", RuntimeVersion.NET10, GcFlavor.WORKSTATION);
        NativeCalls calls = runtime.nativeCalls();
        long block = calls.allocate(100);
        assertThat(block % 16).isZero();
        assertThat(calls.memory().contains(block, 100)).isTrue();
        assertThat(runtime.memory().contains(block, 1)).isFalse();
        assertThat(calls.memory().readLong(block + 92)).isZero();
        calls.memory().writeLong(block, -1);
        calls.free(block);
        assertThatThrownBy(() -> calls.free(block)).isInstanceOf(NativeCallException.class).hasMessageContaining("did not allocate");
    }

    @Test
    void aCallbackReceivesTheArgumentsOfTheCallInOrder() {
        EmulatedRuntime runtime = build("min-object", RuntimeVersion.NET8, GcFlavor.SERVER);
        NativeCalls calls = runtime.nativeCalls();
        long sum = calls.callback(args -> args[0] * 100 + args[1] * 10 + args[2]);
        assertThat(calls.call(sum, 1, 2, 3)).isEqualTo(123);
        assertThat(calls.callback(args -> 0)).isNotEqualTo(sum);
    }
}
