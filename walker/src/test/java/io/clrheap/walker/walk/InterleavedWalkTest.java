package io.clrheap.walker.walk;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.layout.GcFlavor;
import io.clrheap.walker.discovery.AllocContextInfo;
import io.clrheap.walker.discovery.DiscoveredHeap;
import io.clrheap.walker.discovery.Region;
import io.clrheap.walker.discovery.SegmentKind;
import io.clrheap.walker.discovery.SubHeap;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The interleaved walk (two regions' chains stepped in turn on one thread) against the sequential walk, on a heap of
 * regions with every edge case the walker handles: empty regions, allocation contexts (at a region's start, exhausted,
 * ending a region, corrupt over objects), a region too big for a follower's log, and damaged regions (a bad
 * MethodTable with resync, a null MethodTable, an object past the region end, memory missing at the region's end, a
 * region stopped at the problem limit). Everything seen — objects with their regions, problems with their text — must
 * be the same, in the same order.
 */
class InterleavedWalkTest {

    private final TinyHeap h = new TinyHeap();
    private final List<Region> regions = new ArrayList<>();

    /** Closes the region laid out since {@code start} (its end at the cursor unless given) and leaves a gap. */
    private void region(long start, SegmentKind kind, long end) {
        regions.add(new Region(0, kind, TinyHeap.BASE + 0x200 + regions.size() * 0x10L, start, end, end, end, end + 0x100, 0, false));
        h.cursor = Math.max(h.cursor, end) + 0x40;
    }

    private void region(long start) {
        region(start, SegmentKind.GEN0, h.cursor);
    }

    private void objects(int n) {
        for (int i = 0; i < n; i++) {
            switch (i % 4) {
                case 0 -> h.object(h.objectMt, 0);
                case 1 -> h.object(h.stringMt, i % 13);
                case 2 -> h.object(h.byteArrayMt, i % 29);
                default -> h.free(24 + 8 * (i % 5));
            }
        }
    }

    private HeapWalker fixture() {
        long s;
        s = h.cursor; objects(40); region(s);                                    // plain
        s = h.cursor; region(s);                                                 // empty
        s = h.cursor; h.context(0x40); objects(7); h.context(0); objects(3); region(s); // contexts at start, exhausted
        s = h.cursor; objects(5); h.memory.writeLong(h.cursor, 0x4000_0000_0000L); h.cursor += 24; objects(30); region(s); // bad MT, resync
        s = h.cursor; objects(2); h.cursor += 48; objects(9); region(s);         // null MethodTable
        s = h.cursor; objects(3); h.context(0x30); region(s);                    // a context ending the region
        s = h.cursor; objects(4); long big = h.object(h.byteArrayMt, 500); region(s, SegmentKind.GEN1, big + 64); // past the end
        s = h.cursor; long corrupt = h.cursor; objects(6);                       // a context whose alloc_ptr lies on objects
        h.contexts.add(new AllocContextInfo("corrupt thread", 0x99, corrupt, corrupt + 0x30)); region(s);
        s = h.cursor; objects(500); region(s, SegmentKind.GEN2, h.cursor);      // bigger than a small log
        s = h.cursor; h.object(h.objectMt, 0);
        for (int i = 0; i < 12; i++) {                                           // stops at the problem limit (8 below)
            h.memory.writeLong(h.cursor, 0x4000_0000_0000L + 0x1000L * i); h.cursor += 24;
            h.object(h.objectMt, 0); h.object(h.objectMt, 0);
        }
        region(s);
        s = h.cursor; objects(11); region(s, SegmentKind.LOH, h.cursor);
        for (int r = 0; r < 9; r++) {                                            // small regions, several per batch
            s = h.cursor; objects(r * 3); region(s, r % 2 == 0 ? SegmentKind.GEN2 : SegmentKind.POH, h.cursor);
        }
        long blockEnd = TinyHeap.BASE + 0x40000;                                 // last: runs past the memory's end
        s = h.cursor; objects(20); h.object(h.byteArrayMt, (int) (blockEnd - h.cursor - 24)); // objects up to the block's end
        region(s, SegmentKind.GEN2, blockEnd + 0x2000);
        var heap = new DiscoveredHeap(GcFlavor.WORKSTATION, List.of(new SubHeap(0, 0, 0, 0, 0, 0, regions)),
                h.contexts, h.freeMt, false, List.of());
        return new HeapWalker(h.memory, TinyHeap.RULES, heap, new WalkLimits(1 << 20, 1024, 1 << 20, 1 << 22, 8));
    }

    @Test
    void theInterleavedWalkSeesWhatTheSequentialWalkSeesInTheSameOrder() {
        HeapWalker walker = fixture();
        Recorder sequential = new Recorder();
        WalkSummary expected = walker.interleave(false).walk(sequential);
        // the fixture holds what it claims
        assertThat(sequential.lines).anyMatch(l -> l.startsWith("problem BAD_METHOD_TABLE") && l.contains("the walk resumes at"));
        assertThat(sequential.lines).anyMatch(l -> l.startsWith("problem NULL_METHOD_TABLE"));
        assertThat(sequential.lines).anyMatch(l -> l.startsWith("problem OBJECT_PAST_REGION_END"));
        assertThat(sequential.lines).anyMatch(l -> l.startsWith("problem BAD_ALLOC_CONTEXT"));
        assertThat(sequential.lines).anyMatch(l -> l.startsWith("problem UNREADABLE_OBJECT"));
        assertThat(sequential.lines).anyMatch(l -> l.contains("8 problems in this region"));
        assertThat(expected.objects()).isGreaterThan(700);

        for (int limit : new int[] {1, 2, 7, 100, VisitLogLimit.DEFAULT}) {
            walker.followerLogLimit = limit;
            Recorder interleaved = new Recorder();
            WalkSummary summary = walker.interleave(true).walk(interleaved);
            assertThat(interleaved.lines).as("log limit %d", limit).isEqualTo(sequential.lines);
            assertThat(summary).isEqualTo(expected);
        }
    }

    @Test
    void theInterleavedRegionParallelWalkMergesToTheSequentialWalk() throws InterruptedException {
        HeapWalker walker = fixture();
        Recorder sequential = new Recorder();
        walker.interleave(false).walk(sequential);
        for (int threads : new int[] {1, 2, 3}) {
            List<Recorder> parts = new ArrayList<>();
            walker.interleave(true).walkRegions(Recorder::new, parts::add, threads);
            assertThat(parts).hasSize(regions.size());
            assertThat(parts.stream().flatMap(p -> p.lines.stream()).toList()).as("%d threads", threads).isEqualTo(sequential.lines);
        }
    }

    @Test
    void aSingleRegionAndNoRegionWalkAlike() {
        h.context(0x20);
        h.object(h.objectMt, 0);
        h.object(h.stringMt, 5);
        HeapWalker one = h.walker();
        Recorder sequential = new Recorder();
        one.interleave(false).walk(sequential);
        Recorder interleaved = new Recorder();
        one.interleave(true).walk(interleaved);
        assertThat(interleaved.lines).hasSize(2).isEqualTo(sequential.lines);

        var none = new HeapWalker(h.memory, TinyHeap.RULES, new DiscoveredHeap(GcFlavor.WORKSTATION,
                List.of(new SubHeap(0, 0, 0, 0, 0, 0, List.of())), List.of(), h.freeMt, false, List.of()), WalkLimits.DEFAULT);
        assertThat(none.interleave(true).walk(new Recorder())).isEqualTo(WalkSummary.EMPTY);
    }

    /** The default log limit, named for the test. */
    private static final class VisitLogLimit {
        static final int DEFAULT = new TinyHeap().walker().followerLogLimit;
    }

    /** Records what a walk saw: objects with their region, problems with their text. */
    static final class Recorder implements ObjectVisitor {
        final List<String> lines = new ArrayList<>();

        @Override
        public void object(long address, long mt, long size, Region region) {
            lines.add(String.format("0x%x mt 0x%x size %d in %s", address, mt, size, region));
        }

        @Override
        public void problem(Problem p) {
            lines.add(String.format("problem %s at 0x%x: %s [%s]", p.kind(), p.address(), p.detail(), p.region()));
        }
    }
}
