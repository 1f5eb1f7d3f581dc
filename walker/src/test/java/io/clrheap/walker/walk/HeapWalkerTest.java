package io.clrheap.walker.walk;

import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.WalkLimits;

import static io.clrheap.walker.walk.TinyHeap.obj;
import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each walking rule and each problem kind, on hand-built images. */
class HeapWalkerTest {

    private final TinyHeap h = new TinyHeap();

    @Test
    void objectsTileTheRegionAndAreReportedWithUnalignedSizes() {
        long a = h.object(h.objectMt, 0);
        long s = h.object(h.stringMt, 3);          // 22 + 6 = 28, steps 32
        long b = h.object(h.byteArrayMt, 1);       // 24 + 1 = 25, steps 32
        long e = h.object(h.stringMt, 0);          // the empty string: 22, steps 24
        assertThat(TinyHeap.walk(h.walker())).containsExactly(
                obj(a, h.objectMt, 24), obj(s, h.stringMt, 28), obj(b, h.byteArrayMt, 25), obj(e, h.stringMt, 22));
        assertThat(b - s).isEqualTo(32);
    }

    @Test
    void theMarkBitsOfTheMethodTableWordAreCleared() {
        long a = h.object(h.objectMt, 0);
        h.memory.writeLong(a, h.objectMt | 1);     // GC_MARKED
        assertThat(TinyHeap.walk(h.walker())).containsExactly(obj(a, h.objectMt, 24));
    }

    @Test
    void freeObjectsAreWalkedWithTheirFullSize() {
        long f = h.free(200);
        long a = h.object(h.objectMt, 0);
        assertThat(TinyHeap.walk(h.walker())).containsExactly(obj(f, h.freeMt, 200), obj(a, h.objectMt, 24));
    }

    @Test
    void anAllocationContextIsSkippedUpToItsLimitPlusTheTailReserve() {
        long a = h.object(h.objectMt, 0);
        h.context(0x100);
        long b = h.object(h.objectMt, 0);
        assertThat(TinyHeap.walk(h.walker())).containsExactly(obj(a, h.objectMt, 24), obj(b, h.objectMt, 24));
    }

    @Test
    void anExhaustedAllocationContextStillSkipsItsTailReserve() {
        long a = h.object(h.objectMt, 0);
        h.context(0);                              // ptr == limit: 24 unformatted bytes follow
        long b = h.object(h.objectMt, 0);
        assertThat(TinyHeap.walk(h.walker())).containsExactly(obj(a, h.objectMt, 24), obj(b, h.objectMt, 24));
    }

    @Test
    void aContextEndingTheRegionEndsTheWalk() {
        long a = h.object(h.objectMt, 0);
        h.context(0x80);
        assertThat(TinyHeap.walk(h.walker())).containsExactly(obj(a, h.objectMt, 24));
    }

    @Test
    void allocationContextsAreNotSkippedInLargeObjectRegions() {
        h.kind = SegmentKind.LOH;
        long a = h.object(h.objectMt, 0);
        long b = h.object(h.objectMt, 0);
        h.contexts.add(new io.clrheap.walker.heap.AllocContextInfo("stray", 0, b, b + 0x40));
        assertThat(TinyHeap.walk(h.walker())).containsExactly(obj(a, h.objectMt, 24), obj(b, h.objectMt, 24));
    }

    @Test
    void aNullMethodTableIsReportedAndTheWalkResumesAtTheNextPlausibleObject() {
        long a = h.object(h.objectMt, 0);
        long hole = h.cursor;
        h.cursor += 48;                            // 48 zero bytes
        long b = h.object(h.objectMt, 0);
        List<String> seen = TinyHeap.walk(h.walker());
        assertThat(seen).hasSize(3);
        assertThat(seen.get(0)).isEqualTo(obj(a, h.objectMt, 24));
        assertThat(seen.get(1)).startsWith(String.format("problem NULL_METHOD_TABLE at 0x%x", hole))
                .contains(String.format("the walk resumes at 0x%x", b));
        assertThat(seen.get(2)).isEqualTo(obj(b, h.objectMt, 24));
    }

    @Test
    void anUnreadableMethodTableIsReportedWithItsAddress() {
        long a = h.object(h.objectMt, 0);
        long bad = h.cursor;
        h.memory.writeLong(bad, 0x1234_5678_0000L);
        h.cursor += 24;
        long b = h.object(h.objectMt, 0);
        List<String> seen = TinyHeap.walk(h.walker());
        assertThat(seen).containsSubsequence(obj(a, h.objectMt, 24), obj(b, h.objectMt, 24));
        assertThat(seen).anyMatch(l -> l.startsWith(String.format("problem BAD_METHOD_TABLE at 0x%x", bad)) && l.contains("0x123456780000"));
    }

    @Test
    void aMethodTableWithAnImplausibleBaseSizeIsBad() {
        long weird = h.methodTable(7, 0);
        long at = h.cursor;
        h.memory.writeLong(at, weird);
        h.cursor += 24;
        assertThat(TinyHeap.walk(h.walker())).anyMatch(l -> l.startsWith("problem BAD_METHOD_TABLE at 0x" + Long.toHexString(at)));
    }

    @Test
    void anObjectRunningPastTheRegionEndIsReportedAndNotVisited() {
        long a = h.object(h.objectMt, 0);
        long big = h.object(h.byteArrayMt, 1000);
        Region cut = h.region(big + 64);
        List<String> seen = TinyHeap.walk(h.walker(cut));
        assertThat(seen.get(0)).isEqualTo(obj(a, h.objectMt, 24));
        assertThat(seen.get(1)).startsWith(String.format("problem OBJECT_PAST_REGION_END at 0x%x", big))
                .contains("no plausible object follows");
        assertThat(seen).hasSize(2);
    }

    @Test
    void unreadableObjectMemoryIsReportedAndSkippedWithoutLooping() {
        long a = h.object(h.objectMt, 0);
        // a region that claims to run past the end of the memory block
        Region beyond = h.region(TinyHeap.BASE + 0x40000 + 0x3000);
        // objects exactly up to the end of the memory block; the region claims 0x3000 more bytes that are not there
        long blockEnd = TinyHeap.BASE + 0x40000;
        while (blockEnd - h.cursor >= 48) {
            h.object(h.objectMt, 0);
        }
        long last = h.object(h.byteArrayMt, (int) (blockEnd - h.cursor - 24));
        assertThat(h.cursor).isEqualTo(blockEnd);
        List<String> seen = TinyHeap.walk(h.walker(beyond));
        assertThat(seen.get(0)).isEqualTo(obj(a, h.objectMt, 24));
        assertThat(seen.get(seen.size() - 2)).startsWith(String.format("0x%x mt 0x%x", last, h.byteArrayMt));
        assertThat(seen.get(seen.size() - 1)).startsWith(String.format("problem UNREADABLE_OBJECT at 0x%x", blockEnd))
                .contains("are not in tiny heap").contains("the rest of the region is skipped");
        assertThat(seen.stream().filter(l -> l.startsWith("problem"))).hasSize(1);
    }

    @Test
    void aRegionFullOfGarbageIsSkippedInOneProblem() {
        for (int i = 0; i < 200; i++) {
            h.memory.writeLong(h.cursor, 0x4000_0000_0000L + 0x1000L * i); // 200 different unreadable MTs, 24 bytes apart
            h.cursor += 24;
        }
        List<String> seen = TinyHeap.walk(h.walker());
        assertThat(seen).hasSize(1);
        assertThat(seen.get(0)).startsWith("problem BAD_METHOD_TABLE").contains("no plausible object follows");
    }

    @Test
    void aRegionWithManyBadObjectsStopsAtTheProblemLimit() {
        h.object(h.objectMt, 0); // makes the MethodTable known valid, so that the walk can resync on it
        for (int i = 0; i < 50; i++) {
            h.memory.writeLong(h.cursor, 0x4000_0000_0000L + 0x1000L * i);
            h.cursor += 24;
            h.object(h.objectMt, 0); // the walk resumes on two plausible objects in a row
            h.object(h.objectMt, 0);
        }
        WalkLimits limits = new WalkLimits(1 << 20, 1024, 1 << 20, 1 << 22, 5);
        List<String> seen = TinyHeap.walk(new HeapWalker(h.memory, TinyHeap.RULES, h.heap(), limits));
        assertThat(seen.stream().filter(l -> l.startsWith("problem"))).hasSize(5);
        assertThat(seen.get(seen.size() - 1)).contains("5 problems in this region, the remaining");
        assertThat(seen.size()).isLessThan(16);
    }

    @Test
    void aParallelWalkMergedInRegionOrderEqualsTheSequentialWalk() throws InterruptedException {
        List<Region> regions = new java.util.ArrayList<>();
        for (int r = 0; r < 6; r++) {
            long start = h.cursor;
            for (int i = 0; i <= r * 3; i++) {
                h.object(i % 2 == 0 ? h.objectMt : h.stringMt, i);
            }
            regions.add(new Region(0, SegmentKind.GEN2, TinyHeap.BASE + 0x200 + r, start, h.cursor, h.cursor, h.cursor, h.cursor + 0x1000, 0, false));
            h.cursor += 0x100;
        }
        h.memory.writeLong(regions.get(3).mem(), 0x0000_5000_0000_0000L); // a bad object: the region must resync alike in every walk
        var heap = new io.clrheap.walker.heap.DiscoveredHeap(io.clrheap.layout.GcFlavor.WORKSTATION,
                List.of(new io.clrheap.walker.heap.SubHeap(0, 0, 0, 0, 0, 0, regions)), List.of(), h.freeMt, false, List.of());
        HeapWalker walker = new HeapWalker(h.memory, TinyHeap.RULES, heap, WalkLimits.DEFAULT);
        List<String> sequential = TinyHeap.walk(walker);
        assertThat(sequential).anyMatch(l -> l.startsWith("problem BAD_METHOD_TABLE") && l.contains("the walk resumes at"));
        List<Recorder> parts = new java.util.ArrayList<>();
        walker.walkRegions(Recorder::new, parts::add, 4);
        assertThat(parts).hasSize(6);
        assertThat(parts.stream().flatMap(p -> p.lines.stream()).toList()).isEqualTo(sequential);
    }

    /** Records what one region's walk saw. */
    static final class Recorder implements ObjectVisitor {
        final List<String> lines = new java.util.ArrayList<>();

        @Override
        public void object(long address, long mt, long size, Region region) {
            lines.add(obj(address, mt, size));
        }

        @Override
        public void problem(Problem p) {
            lines.add(String.format("problem %s at 0x%x: %s", p.kind(), p.address(), p.detail()));
        }
    }
}
