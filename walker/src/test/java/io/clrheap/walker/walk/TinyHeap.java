package io.clrheap.walker.walk;

import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.WalkLimits;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.memory.SegmentMemory;
import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.heap.SubHeap;
import java.util.ArrayList;
import java.util.List;

/**
 * A hand-built heap image for walker unit tests (walker tests never use the emulator): a block of memory with a
 * few MethodTables at its start and one region whose objects the test lays out with a bump pointer.
 */
final class TinyHeap {

    static final long BASE = 0x7f0000000000L;
    static final long MT_AREA = BASE;
    static final long REGION = BASE + 0x10000;
    static final RuntimeLayout LAYOUT = ProfileLoader.builtIn().load(RuntimeVersion.NET8, GcFlavor.WORKSTATION);
    static final WalkRules RULES = WalkRules.of(LAYOUT);

    final SegmentMemory memory = SegmentMemory.allocate(BASE, 0x40000, "tiny heap");
    final long freeMt;
    final long objectMt;
    final long stringMt;
    final long byteArrayMt;
    private long nextMt = MT_AREA;
    long cursor = REGION + 0x28;
    final List<AllocContextInfo> contexts = new ArrayList<>();
    SegmentKind kind = SegmentKind.GEN0;

    TinyHeap() {
        freeMt = methodTable(24, 1);
        objectMt = methodTable(24, 0);
        stringMt = methodTable(22, 2);
        byteArrayMt = methodTable(24, 1);
    }

    /** A MethodTable with this base size and component size (0: none), and its EEClass pointing back to it. */
    long methodTable(int baseSize, int componentSize) {
        long mt = nextMt;
        long eeClass = mt + 0x40;
        nextMt += 0x80;
        int flags = componentSize == 0 ? 0 : (int) (0x80000000L | componentSize);
        memory.writeInt(mt + LAYOUT.offset("MethodTable", "MTFlags"), flags);
        memory.writeInt(mt + LAYOUT.offset("MethodTable", "BaseSize"), baseSize);
        memory.writeLong(mt + LAYOUT.offset("MethodTable", "EEClassOrCanonMT"), eeClass);
        memory.writeLong(eeClass + LAYOUT.offset("EEClass", "MethodTable"), mt);
        return mt;
    }

    /** Places an object with {@code count} components at the cursor and moves it past. */
    long object(long mt, int count) {
        long at = cursor;
        memory.writeLong(at, mt);
        memory.writeInt(at + 8, count);
        int base = memory.readInt(mt + 4);
        int component = memory.readInt(mt) & 0xffff;
        boolean hasComponents = memory.readInt(mt) < 0;
        long size = base + (hasComponents ? (long) count * component : 0);
        cursor += Math.max((size + 7) & -8L, 24);
        return at;
    }

    long free(long size) {
        return object(freeMt, (int) (size - 24));
    }

    /** An allocation context [cursor, cursor + bytes): the cursor moves past its 24-byte tail reserve. */
    long context(long bytes) {
        long ptr = cursor;
        contexts.add(new AllocContextInfo("test thread", 0, ptr, ptr + bytes));
        cursor = ptr + bytes + 24;
        return ptr;
    }

    Region region() {
        return region(cursor);
    }

    Region region(long end) {
        return new Region(0, kind, BASE + 0x100, REGION + 0x28, end, end, REGION + 0x10000, REGION + 0x20000, 0, false);
    }

    DiscoveredHeap heap() {
        return heap(region());
    }

    DiscoveredHeap heap(Region region) {
        return new DiscoveredHeap(GcFlavor.WORKSTATION,
                List.of(new SubHeap(0, 0, 0, region.end(), 0, 0, List.of(region))), contexts, freeMt, false, List.of());
    }

    HeapWalker walker() {
        return new HeapWalker(memory, RULES, heap(), WalkLimits.DEFAULT);
    }

    HeapWalker walker(Region region) {
        return new HeapWalker(memory, RULES, heap(region), WalkLimits.DEFAULT);
    }

    /** Everything a walk reports, as text lines: objects "0x… mt 0x… size N", problems "problem KIND at 0x…". */
    static List<String> walk(HeapWalker walker) {
        List<String> seen = new ArrayList<>();
        walker.walk(new ObjectVisitor() {
            @Override
            public void object(long address, long mt, long size, Region region) {
                seen.add(String.format("0x%x mt 0x%x size %d", address, mt, size));
            }

            @Override
            public void problem(Problem p) {
                seen.add(String.format("problem %s at 0x%x: %s", p.kind(), p.address(), p.detail()));
            }
        });
        return seen;
    }

    static String obj(long address, long mt, long size) {
        return String.format("0x%x mt 0x%x size %d", address, mt, size);
    }
}
