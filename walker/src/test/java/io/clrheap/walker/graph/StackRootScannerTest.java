package io.clrheap.walker.graph;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.memory.SegmentMemory;
import io.clrheap.walker.heap.ManagedThread;
import io.clrheap.walker.source.OsThread;
import io.clrheap.walker.source.Register;
import io.clrheap.walker.source.RegisterSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The conservative stack scan: words at or above rsp that point at or into an object, registers, thread-static arrays. */
class StackRootScannerTest {

    static final long A = 0x1000;
    static final long B = 0x2000;
    static final long C = 0x3000;
    static final long STACK = 0x7f0000000000L;
    static final long RSP = STACK + 0x800;
    static final long TID = 4242;

    private final SegmentMemory memory = SegmentMemory.allocate(STACK, 0x1000, "stack");
    private final HeapGraph graph = HeapGraph.of(new long[] {A, B, C}, new long[][] {{}, {}, {}});

    private StackRootScanner.Result scan(RegisterSet registers, long stackBase, ManagedThread... threads) {
        return new StackRootScanner(memory, graph).scan(List.of(threads), List.of(new OsThread(TID, registers, stackBase)));
    }

    private static RegisterSet registers(long rsp) {
        return new RegisterSet.Builder().set(Register.RSP, rsp).build();
    }

    private static ManagedThread thread() {
        return new ManagedThread(0x5000, 1, TID);
    }

    @Test
    void aWordAtOrAboveRspHoldingAnObjectsAddressIsARootNamedByItsSlot() {
        memory.writeLong(RSP, A);
        memory.writeLong(RSP + 0x18, C);

        StackRootScanner.Result r = scan(registers(RSP), 0, thread());

        assertThat(r.roots()).extracting(Root::kind, Root::address, Root::target).containsExactly(
                org.assertj.core.groups.Tuple.tuple(RootKind.STACK, RSP, A), org.assertj.core.groups.Tuple.tuple(RootKind.STACK, RSP + 0x18, C));
        assertThat(r.roots().get(1).stack().location()).isEqualTo("rsp+0x18");
        assertThat(r.roots().get(1).stack().osThreadId()).isEqualTo(TID);
        assertThat(r.roots().get(1).stack().managedThreadId()).isEqualTo(1);
        assertThat(r.roots()).allSatisfy(root -> assertThat(root.interior()).isFalse());
    }

    @Test
    void aWordBelowRspIsStaleAndNeverARoot() {
        memory.writeLong(RSP - 8, B);

        assertThat(scan(registers(RSP), 0, thread()).roots()).isEmpty();
    }

    @Test
    void aWordPointingInsideAnObjectIsAnInteriorRootOfThatObject() {
        memory.writeLong(RSP + 8, B + 0x10);

        assertThat(scan(registers(RSP), 0, thread()).roots()).singleElement().satisfies(root -> {
            assertThat(root.target()).isEqualTo(B);
            assertThat(root.stack().value()).isEqualTo(B + 0x10);
            assertThat(root.interior()).isTrue();
        });
    }

    @Test
    void wordsThatPointAtNoObjectAreNotRoots() {
        memory.writeLong(RSP, 0x12345);
        memory.writeLong(RSP + 8, A + 24); // one past A's end, before B
        memory.writeLong(RSP + 16, STACK + 0x900); // a saved frame pointer

        assertThat(scan(registers(RSP), 0, thread()).roots()).isEmpty();
    }

    @Test
    void aRegisterHoldingAnObjectIsARootNamedByTheRegister() {
        RegisterSet regs = new RegisterSet.Builder().set(Register.RSP, RSP).set(Register.RBX, C).set(Register.RIP, A).build();

        assertThat(scan(regs, 0, thread()).roots()).singleElement().satisfies(root -> {
            assertThat(root.stack().register()).isEqualTo(Register.RBX);
            assertThat(root.stack().location()).isEqualTo("rbx");
            assertThat(root.address()).isZero();
            assertThat(root.target()).isEqualTo(C);
        });
    }

    @Test
    void theStackEndsWhereTheDumpSaysItDoes() {
        memory.writeLong(RSP + 0x100, A);
        memory.writeLong(RSP + 0x200, B);

        StackRootScanner.Result r = scan(registers(RSP), RSP + 0x200, thread());

        assertThat(r.roots()).extracting(Root::target).containsExactly(A);
        assertThat(r.threads()).singleElement().satisfies(t -> {
            assertThat(t.stackEnd()).isEqualTo(RSP + 0x200);
            assertThat(t.words()).isEqualTo(0x200 / 8);
        });
    }

    @Test
    void withoutAnEndFromTheDumpTheStackEndsWithItsMemory() {
        memory.writeLong(STACK + 0xff8, A);

        StackRootScanner.Result r = scan(registers(RSP), 0, thread());

        assertThat(r.roots()).extracting(Root::target).containsExactly(A);
        assertThat(r.threads().getFirst().stackEnd()).isEqualTo(STACK + 0x1000);
    }

    @Test
    void aStackPointerOutsideTheDumpIsAProblemAndTheThreadIsNotScanned() {
        StackRootScanner.Result r = scan(registers(0x10_0000), 0, thread());

        assertThat(r.roots()).isEmpty();
        assertThat(r.threads().getFirst().scanned()).isFalse();
        assertThat(r.problems()).singleElement().satisfies(p -> assertThat(p.detail()).contains("thread 1 (tid 4242)", "0x100000", "not in the dump"));
    }

    @Test
    void aManagedThreadWhoseOsThreadTheDumpLacksIsSaidNotScanned() {
        StackRootScanner.Result r = scan(registers(RSP), 0, new ManagedThread(0x6000, 7, 999));

        assertThat(r.threads()).singleElement().satisfies(t -> {
            assertThat(t.scanned()).isFalse();
            assertThat(t.skipped()).contains("no registers for OS thread 999");
        });
    }

    @Test
    void withNoRegistersAtAllNoThreadIsScannedAndTheReasonSaysSo() {
        StackRootScanner.Result r = new StackRootScanner(memory, graph).scan(List.of(thread()), List.of());

        assertThat(r.threads()).singleElement().satisfies(t -> assertThat(t.skipped()).contains("no thread registers were recorded"));
    }

    @Test
    void aThreadsThreadStaticArrayIsARootOfItsOwnKind() {
        long slot = STACK + 0x10; // the ThreadLocalData's pNonCollectibleTlsArrayData
        memory.writeLong(slot, B);

        StackRootScanner.Result r = scan(registers(RSP), 0, new ManagedThread(0x5000, 1, TID, slot));

        assertThat(r.roots()).singleElement().satisfies(root -> {
            assertThat(root.kind()).isEqualTo(RootKind.THREAD_STATIC);
            assertThat(root.address()).isEqualTo(slot);
            assertThat(root.target()).isEqualTo(B);
            assertThat(root.kind().keepsAlive()).isTrue();
        });
    }

    @Test
    void aThreadStaticPointerToNoObjectIsAProblemNotARoot() {
        long slot = STACK + 0x10;
        memory.writeLong(slot, 0x1234);

        StackRootScanner.Result r = scan(registers(RSP), 0, new ManagedThread(0x5000, 1, TID, slot));

        assertThat(r.roots()).isEmpty();
        assertThat(r.problems()).singleElement().satisfies(p -> assertThat(p.detail()).contains("0x1234 is no object of the heap"));
    }

    @Test
    void anObjectOnlyAStackHoldsIsLive() {
        memory.writeLong(RSP, C);

        List<Root> roots = scan(registers(RSP), 0, thread()).roots();

        assertThat(Reachability.live(graph, roots).stream().mapToLong(graph::address)).containsExactly(C);
    }
}
