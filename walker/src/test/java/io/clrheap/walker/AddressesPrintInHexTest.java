package io.clrheap.walker;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.layout.GcFlavor;
import io.clrheap.walker.fields.ArrayLayout;
import io.clrheap.walker.fields.DynamicStaticsInfo;
import io.clrheap.walker.fields.FieldDesc;
import io.clrheap.walker.fields.ObjectFields;
import io.clrheap.walker.graph.Root;
import io.clrheap.walker.graph.RootKind;
import io.clrheap.walker.graph.RootPath;
import io.clrheap.walker.graph.StackSlot;
import io.clrheap.walker.graph.ThreadScan;
import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.FieldRead;
import io.clrheap.walker.heap.ManagedThread;
import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.ProblemKind;
import io.clrheap.walker.heap.SubHeap;
import io.clrheap.walker.report.HandleInfo;
import io.clrheap.walker.runtime.RuntimeModule;
import io.clrheap.walker.sos.SosEeHeap;
import io.clrheap.walker.sos.SosGcHandles;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.source.OsThread;
import io.clrheap.walker.source.Register;
import io.clrheap.walker.source.minidump.MinidumpThread;
import io.clrheap.walker.symbols.VersionResource;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Every address a record of the walker's API holds prints in hex, as SOS, gdb and clrheap's reports print them, never
 * in decimal as a record's default {@code toString} would. Addresses from golden/real/net8-svr.
 */
class AddressesPrintInHexTest {

    static final long OBJECT = 0x7f929d40be68L;
    static final long HANDLE = 0x7fd2afa413f8L;
    static final long OTHER = 0x7f929d40bdd0L;
    static final long STACK = 0x7ffcb3de76f0L;

    /** Each address appears as {@code 0x…} and none in decimal. */
    private static void assertHex(Object printed, long... addresses) {
        String text = printed.toString();
        for (long a : addresses) {
            assertThat(text).as(text).contains(String.format("0x%x", a)).doesNotContain(Long.toString(a));
        }
    }

    @Test
    void rootPathPrintsItsRootAndChainInHexWithTheFieldOffsets() {
        RootPath path = new RootPath(new Root(RootKind.STRONG, HANDLE, OTHER, 0, 0), List.of(OTHER, OBJECT), List.of(0x30));

        assertHex(path, HANDLE, OTHER, OBJECT);
        assertThat(path.toString()).contains(String.format("0x%x -> (+0x30) 0x%x", OTHER, OBJECT));
    }

    @Test
    void rootPrintsItsSlotTargetAndSecondaryInHex() {
        assertHex(new Root(RootKind.DEPENDENT, HANDLE, OBJECT, OTHER, 1), HANDLE, OBJECT, OTHER);
    }

    @Test
    void stackSlotPrintsItsSlotStackPointerAndValueInHex() {
        assertHex(new StackSlot(30152, 1, STACK, null, STACK - 0xe0, OBJECT), STACK, STACK - 0xe0, OBJECT);
        assertThat(new StackSlot(30152, 1, 0, Register.R14, STACK, OBJECT).toString()).contains("register=R14", "osThreadId=30152");
    }

    @Test
    void threadScanPrintsItsStackBoundsInHex() {
        assertHex(new ThreadScan(new ManagedThread(HANDLE, 1, 30152), STACK, STACK + 0x2000, 1024, 3, null), STACK, STACK + 0x2000, HANDLE);
    }

    @Test
    void managedThreadPrintsItsThreadObjectAndThreadStaticsInHex() {
        assertHex(new ManagedThread(HANDLE, 1, 30152, OTHER), HANDLE, OTHER);
    }

    @Test
    void allocContextPrintsItsLocationPointerAndLimitInHex() {
        assertHex(new AllocContextInfo("thread 1 (tid 30152)", HANDLE, OBJECT, OBJECT + 0x2000), HANDLE, OBJECT, OBJECT + 0x2000);
    }

    @Test
    void problemPrintsItsAddressInHex() {
        assertHex(new Problem(ProblemKind.DANGLING_REFERENCE, OBJECT, "", "0x0 is no object of the heap"), OBJECT);
    }

    @Test
    void fieldReadPrintsItsAddressInHex() {
        assertHex(new FieldRead("heap_segment", "next", OTHER, 0x30, "profile"), OTHER + 0x30);
    }

    @Test
    void subHeapPrintsItsStructuresInHex() {
        assertHex(new SubHeap(0, HANDLE, HANDLE + 0x100, OBJECT, OTHER, STACK, List.of()), HANDLE, HANDLE + 0x100, OBJECT, OTHER, STACK);
    }

    @Test
    void discoveredHeapPrintsTheFreeMethodTableInHex() {
        assertHex(new DiscoveredHeap(GcFlavor.SERVER, List.of(), List.of(), HANDLE, false, List.of()), HANDLE);
    }

    @Test
    void handleInfoPrintsItsHandleTargetAndSecondaryInHex() {
        assertHex(new HandleInfo(HANDLE, 2, "strong", OBJECT, OTHER, 0), HANDLE, OBJECT, OTHER);
    }

    @Test
    void fieldDescPrintsItsAddressAndClassInHex() {
        assertHex(new FieldDesc(HANDLE, OTHER, 5, false, false, 1, 0x10, 0x12), HANDLE, OTHER);
    }

    @Test
    void objectFieldPrintsItsValuesAddressAndReferenceInHex() {
        FieldDesc desc = new FieldDesc(HANDLE, OTHER, 5, false, false, 1, 0x10, 0x12);
        assertHex(new ObjectFields.Field(desc, "_next", "Node", OBJECT + 0x18, "00007f929d40bdd0", OTHER), OBJECT + 0x18, OTHER);
    }

    @Test
    void arrayLayoutPrintsItsElementMethodTableAndDataInHex() {
        assertHex(new ArrayLayout(HANDLE, 0x12, 1, true, 3, 8, OBJECT + 0x10, new long[] {3}, new long[] {0}), HANDLE, OBJECT + 0x10);
    }

    @Test
    void dynamicStaticsInfoPrintsItsBasesInHex() {
        assertHex(new DynamicStaticsInfo(HANDLE, OTHER, true), HANDLE, OTHER);
    }

    @Test
    void runtimeModulePrintsItsBaseAndDacTableInHex() {
        assertHex(new RuntimeModule("/usr/share/dotnet/libcoreclr.so", HANDLE, HANDLE + 0x4e1a00, 200, "dump"), HANDLE, HANDLE + 0x4e1a00);
    }

    @Test
    void osThreadPrintsItsStackBaseInHex() {
        assertHex(new OsThread(30152, null, STACK), STACK);
    }

    @Test
    void minidumpThreadPrintsItsTebAndStackInHex() {
        assertHex(new MinidumpThread(0x75c8, HANDLE, STACK, 0x10000, Optional.empty()), HANDLE, STACK);
    }

    @Test
    void versionResourcePrintsItsAddressInHex() {
        assertHex(new VersionResource(HANDLE, "8.0.3026.36720", "8.0.30"), HANDLE);
    }

    @Test
    void eeHeapSegmentAndHeapPrintTheirAddressesInHex() {
        SosEeHeap.Segment segment = new SosEeHeap.Segment(HANDLE, SegmentKind.GEN0, OBJECT, OBJECT + 0x100, OBJECT + 0x1000);
        assertHex(segment, HANDLE, OBJECT, OBJECT + 0x100, OBJECT + 0x1000);
        assertHex(new SosEeHeap.Heap(0, OTHER, List.of(segment)), OTHER, HANDLE);
    }

    @Test
    void gcHandlesHandlePrintsItsHandleObjectMethodTableAndSecondaryInHex() {
        assertHex(new SosGcHandles.Handle(HANDLE, RootKind.DEPENDENT, OBJECT, STACK, 24, OTHER, "System.Object"), HANDLE, OBJECT, STACK, OTHER);
    }
}
