package io.clrheap.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.capture.snapshot.GcHeapSnapshot.Node;
import io.clrheap.memory.SegmentMemory;
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
        SnapshotAgreement a = SnapshotAgreement.check(dump(), List.of(new Node(BASE, 24, OBJECT_MT, "System.Object"),
                new Node(BASE + 0x18, 28, STRING_MT, "System.String"), new Node(BASE + 0x40, 24, OBJECT_MT, "System.Object")));
        assertThat(a.agrees()).isTrue();
        assertThat(a.found()).isEqualTo(3);
        assertThat(a.firstMismatch()).isEqualTo(-1);
    }

    @Test
    void aSnapshotListingMovedObjectsDisagreesAndNamesTheFirst() {
        // where a compacting GC put them: one inside the dump at the wrong place, two past its memory
        SnapshotAgreement a = SnapshotAgreement.check(dump(), List.of(new Node(BASE + 0x8, 24, OBJECT_MT, "System.Object"),
                new Node(BASE + 0x1000, 28, STRING_MT, "System.String"), new Node(BASE + 0x1018, 24, OBJECT_MT, "System.Object")));
        assertThat(a.agrees()).isFalse();
        assertThat(a.found()).isZero();
        assertThat(a.firstMismatch()).isEqualTo(BASE + 0x8);
        assertThat(a.describe()).contains("0 of 3 listed objects").contains("0x7f0000001008");
    }
}
