package io.clrheap.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.capture.snapshot.GcHeapSnapshot.Node;
import io.clrheap.memory.SegmentMemory;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import java.util.List;
import org.junit.jupiter.api.Test;

class SnapshotAgreementTest {

    private static final long BASE = 0x7f0000001000L;
    private static final long OBJECT_MT = 0x55000000aa00L;
    private static final long STRING_MT = 0x55000000bb00L;

    /** A dump holding an Object at BASE, a String at BASE + 0x18 (its MethodTable word carrying the GC mark bit) and a third Object at BASE + 0x40. */
    private static SegmentMemory dump() {
        SegmentMemory m = SegmentMemory.allocate(BASE, 0x100, "dump");
        m.writeLong(BASE, OBJECT_MT);
        m.writeLong(BASE + 0x18, STRING_MT | 1);
        m.writeLong(BASE + 0x40, OBJECT_MT);
        return m;
    }

    @Test
    void aSnapshotOfTheDumpsObjectsAgreesWithTheMarkBitMasked() {
        SnapshotAgreement a = SnapshotAgreement.check(dump(), List.of(), List.of(new Node(BASE, 24, OBJECT_MT, "System.Object"),
                new Node(BASE + 0x18, 28, STRING_MT, "System.String"), new Node(BASE + 0x40, 24, OBJECT_MT, "System.Object")));
        assertThat(a.agrees()).isTrue();
        assertThat(a.found()).isEqualTo(3);
        assertThat(a.firstMismatch()).isEqualTo(-1);
    }

    @Test
    void aSnapshotListingMovedObjectsDisagreesAndNamesTheFirst() {
        // where a compacting GC put them: one inside the dump at the wrong place, two past its memory
        SnapshotAgreement a = SnapshotAgreement.check(dump(), List.of(), List.of(new Node(BASE + 0x8, 24, OBJECT_MT, "System.Object"),
                new Node(BASE + 0x1000, 28, STRING_MT, "System.String"), new Node(BASE + 0x1018, 24, OBJECT_MT, "System.Object")));
        assertThat(a.agrees()).isFalse();
        assertThat(a.found()).isZero();
        assertThat(a.firstMismatch()).isEqualTo(BASE + 0x8);
        assertThat(a.describe()).contains("0 of 3 listed objects").contains("0x7f0000001008");
        assertThat(a.enough()).isFalse();
        assertThat(a.changed()).extracting(SnapshotAgreement.Changed::line).containsExactly(
                "0x7f0000001008 24 0x55000000aa00 System.Object: zeros in the dump (allocated after it)",
                "0x7f0000002000 28 0x55000000bb00 System.String: not in the dump's memory",
                "0x7f0000002018 24 0x55000000aa00 System.Object: not in the dump's memory");
    }

    @Test
    void aFewChangedObjectsAreNamedWithWhatTheDumpHoldsThere() {
        // a busy process: of 20 listed objects one was allocated after the dump and one lies where the dump has a String
        SegmentMemory m = SegmentMemory.allocate(BASE, 0x400, "dump");
        List<Node> listed = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            long address = BASE + 0x20L * i;
            if (i == 7) {
                m.writeLong(address, STRING_MT);
            } else if (i != 3) {
                m.writeLong(address, OBJECT_MT);
            }
            listed.add(new Node(address, 24, OBJECT_MT, "System.Object"));
        }
        SnapshotAgreement a = SnapshotAgreement.check(m, List.of(), listed);
        assertThat(a.found()).isEqualTo(18);
        assertThat(a.agrees()).as("2 of 20 is more than 1 %").isFalse();
        assertThat(a.enough()).as("18 of 20 is 90 %").isTrue();
        assertThat(a.changed()).extracting(SnapshotAgreement.Changed::line).containsExactly(
                "0x7f0000001060 24 0x55000000aa00 System.Object: zeros in the dump (allocated after it)",
                "0x7f00000010e0 24 0x55000000aa00 System.Object: the dump has MethodTable word 0x55000000bb00 there");
    }

    @Test
    void aMethodTableWordPastTheRegionsAllocatedEndIsStaleMemoryNotTheObject() {
        // a busy process: the region's objects end at BASE + 0x40 (heap_segment.allocated), and past it lies a copy of
        // an Object's word that a compacting GC left behind; the snapshot's Object there was allocated after the dump
        Region region = new Region(0, SegmentKind.GEN1, 0x7f0000100000L, BASE, BASE + 0x40, BASE + 0x40, BASE + 0x1000, BASE + 0x1000, 0, false);
        SnapshotAgreement a = SnapshotAgreement.check(dump(), List.of(region), List.of(new Node(BASE, 24, OBJECT_MT, "System.Object"),
                new Node(BASE + 0x18, 28, STRING_MT, "System.String"), new Node(BASE + 0x40, 24, OBJECT_MT, "System.Object")));
        assertThat(a.found()).isEqualTo(2);
        assertThat(a.changed()).extracting(SnapshotAgreement.Changed::line).containsExactly(
                "0x7f0000001040 24 0x55000000aa00 System.Object: in no region's allocated part in the dump (stale memory a GC left behind, "
                        + "or a region allocated after it)");
    }
}
