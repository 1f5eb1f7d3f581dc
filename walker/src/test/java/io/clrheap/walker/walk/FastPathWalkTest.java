package io.clrheap.walker.walk;

import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.WalkLimits;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.layout.GcFlavor;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MemoryRange;
import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.heap.SubHeap;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The walk's fast path (objects read from a window of the memory, {@code HeapWalker.RegionWalk.fastStep}) against
 * the ordinary path alone: the same heap walked through memory that offers no views (the fast path never applies),
 * whole views, and views of a few bytes (so that objects straddle the window's end). The heap has every edge case
 * the walker handles — empty regions, allocation contexts (at a region's start, exhausted, ending a region, corrupt
 * over objects) and damaged regions (a bad MethodTable with resync, a null MethodTable, an object past the region
 * end, memory missing at the region's end, a region stopped at the problem limit). Everything seen — objects with
 * their regions, problems with their text — must be the same, in the same order, sequential and region-parallel.
 */
class FastPathWalkTest {

    private final TinyHeap h = new TinyHeap();
    private final List<Region> regions = new ArrayList<>();

    /** Closes the region laid out since {@code start} with the given end, and leaves a gap. */
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

    private DiscoveredHeap fixture() {
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
        s = h.cursor; objects(500); region(s, SegmentKind.GEN2, h.cursor);
        s = h.cursor; h.object(h.objectMt, 0);
        for (int i = 0; i < 12; i++) {                                           // stops at the problem limit (8 below)
            h.memory.writeLong(h.cursor, 0x4000_0000_0000L + 0x1000L * i); h.cursor += 24;
            h.object(h.objectMt, 0); h.object(h.objectMt, 0);
        }
        region(s);
        s = h.cursor; objects(11); region(s, SegmentKind.LOH, h.cursor);
        for (int r = 0; r < 5; r++) {
            s = h.cursor; objects(r * 3); region(s, r % 2 == 0 ? SegmentKind.GEN2 : SegmentKind.POH, h.cursor);
        }
        long blockEnd = TinyHeap.BASE + 0x40000;                                 // last: runs past the memory's end
        s = h.cursor; objects(20); h.object(h.byteArrayMt, (int) (blockEnd - h.cursor - 24)); // objects up to the block's end
        region(s, SegmentKind.GEN2, blockEnd + 0x2000);
        return new DiscoveredHeap(GcFlavor.WORKSTATION, List.of(new SubHeap(0, 0, 0, 0, 0, 0, regions)),
                h.contexts, h.freeMt, false, List.of());
    }

    private static HeapWalker walker(Memory memory, DiscoveredHeap heap) {
        return new HeapWalker(memory, TinyHeap.RULES, heap, new WalkLimits(1 << 20, 1024, 1 << 20, 1 << 22, 8));
    }

    @Test
    void theFastPathSeesWhatTheOrdinaryPathSeesInTheSameOrder() throws InterruptedException {
        DiscoveredHeap heap = fixture();
        Recorder ordinary = new Recorder();
        WalkSummary expected = walker(h.memory, heap).walk(ordinary); // a SegmentMemory has no views
        // the fixture holds what it claims
        assertThat(ordinary.lines).anyMatch(l -> l.startsWith("problem BAD_METHOD_TABLE") && l.contains("the walk resumes at"));
        assertThat(ordinary.lines).anyMatch(l -> l.startsWith("problem NULL_METHOD_TABLE"));
        assertThat(ordinary.lines).anyMatch(l -> l.startsWith("problem OBJECT_PAST_REGION_END"));
        assertThat(ordinary.lines).anyMatch(l -> l.startsWith("problem BAD_ALLOC_CONTEXT"));
        assertThat(ordinary.lines).anyMatch(l -> l.startsWith("problem UNREADABLE_OBJECT"));
        assertThat(ordinary.lines).anyMatch(l -> l.contains("8 problems in this region"));
        assertThat(expected.objects()).isGreaterThan(650);

        for (Memory memory : List.of(new Views(h.memory, 1 << 20), new Views(h.memory, 40), new Views(h.memory, 100),
                new Views(h.memory, 4096))) {
            Recorder fast = new Recorder();
            assertThat(walker(memory, heap).walk(fast)).as(memory.describe()).isEqualTo(expected);
            assertThat(fast.lines).as(memory.describe()).isEqualTo(ordinary.lines);
            List<Recorder> parts = new ArrayList<>();
            walker(memory, heap).walkRegions(Recorder::new, parts::add, 2);
            assertThat(parts.stream().flatMap(p -> p.lines.stream()).toList()).as(memory.describe()).isEqualTo(ordinary.lines);
        }
    }

    /** The memory of a tiny heap with views of at most {@code viewBytes} (a {@link io.clrheap.memory.SegmentMemory} has none). */
    private record Views(Memory memory, long viewBytes) implements Memory {
        /** A copy of the bytes from {@code address} on, to the end of its range or {@code viewBytes} at most. */
        @Override
        public MemorySegment contiguous(long address) {
            for (MemoryRange range : memory.ranges()) {
                if (viewBytes > 0 && Long.compareUnsigned(address - range.start(), range.length()) < 0) {
                    return MemorySegment.ofArray(memory.readBytes(address, (int) Math.min(viewBytes, range.end() - address)));
                }
            }
            return null;
        }

        @Override
        public byte readByte(long address) {
            return memory.readByte(address);
        }

        @Override
        public short readShort(long address) {
            return memory.readShort(address);
        }

        @Override
        public int readInt(long address) {
            return memory.readInt(address);
        }

        @Override
        public long readLong(long address) {
            return memory.readLong(address);
        }

        @Override
        public void read(long address, byte[] destination, int offset, int length) {
            memory.read(address, destination, offset, length);
        }

        @Override
        public boolean contains(long address, long length) {
            return memory.contains(address, length);
        }

        @Override
        public List<MemoryRange> ranges() {
            return memory.ranges();
        }

        @Override
        public String describe() {
            return memory.describe() + " in views of " + viewBytes + " bytes";
        }
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
