package io.clrheap.emulator.gc;

import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.view.HandleTable;
import io.clrheap.layout.view.HandleTableBucket;
import io.clrheap.layout.view.HandleTableMap;
import io.clrheap.layout.view.TableSegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import io.clrheap.emulator.process.Process;

/**
 * The handle tables (docs/reference/clr-layouts.md section 12): {@code g_HandleTableMap} → one bucket → one {@code HandleTable}
 * per heap → a 64 KiB {@code TableSegment}; each handle type gets its own block (a circular chain of one block
 * from {@code rgTail}), a handle is the address of its slot, its free-mask bit is cleared; a dependent handle's
 * secondary sits at the same index of the block's user-data block.
 */
public final class HandleTableBuilder {

    /** A handle as placed. */
    public record Handle(long handle, String type, int typeNumber, long target, long secondary, int table) {
    }

    private static final String[] KINDS = {"strong", "weak_short", "weak_long", "pinned", "dependent"};

    private final Process process;
    private final RuntimeLayout layout;
    private final List<Handle> handles = new ArrayList<>();
    /** Each table's segment, by table index. */
    private final List<Long> segments = new ArrayList<>();
    private int perKind;

    public HandleTableBuilder(Process process) {
        this.process = process;
        this.layout = process.layout();
    }

    public List<Handle> handles() {
        return handles;
    }

    /** Builds the map with one table per heap, each holding {@code perKind} handles of every kind to random objects. */
    public long build(int tables, int perKind, Random random) {
        var memory = process.memory();
        int buckets = (int) layout.constant("handle.initial_table_array_size");
        long map = process.allocateNative("HandleTableMap", 0x18);
        long bucketArray = process.nativeHeap().allocate(8L * buckets, 16);
        HandleTableMap.Writable m = process.views().view(HandleTableMap.Writable.class, memory, map);
        m.buckets(bucketArray);
        m.maxIndex(buckets);
        long bucket = process.allocateNative("HandleTableBucket", 0x10);
        long tableArray = process.nativeHeap().allocate(8L * tables, 16);
        process.views().view(HandleTableBucket.Writable.class, memory, bucket).tables(tableArray);
        memory.writePointer(bucketArray, bucket);
        List<Long> targets = objects(random);
        this.perKind = targets.isEmpty() ? 0 : perKind;
        for (int t = 0; t < tables; t++) {
            long table = process.allocateNative("HandleTable", 0xe8);
            long segment = process.handleSegments().allocate(layout.constant("handle.segment_size"), layout.constant("handle.segment_size"));
            segments.add(segment);
            memory.writePointer(tableArray + 8L * t, table);
            process.views().view(HandleTable.Writable.class, memory, table).segmentList(segment);
            fillSegment(segment, table, t, targets.isEmpty() ? 0 : perKind, targets, random); // no objects: nothing to point at
        }
        return map;
    }

    private void fillSegment(long segment, long table, int tableIndex, int perKind, List<Long> targets, Random random) {
        var memory = process.memory();
        TableSegment.Writable s = process.views().view(TableSegment.Writable.class, memory, segment);
        int blocks = (int) layout.constant("handle.blocks_per_segment");
        int invalid = (int) layout.constant("handle.block_invalid");
        int types = (int) layout.constant("handle.max_internal_types");
        int perBlock = (int) layout.constant("handle.handles_per_block");
        for (int b = 0; b < blocks; b++) {
            s.allocation(b, invalid);
            s.blockType(b, invalid);
            s.userData(b, invalid);
        }
        for (int t = 0; t < types; t++) {
            s.tail(t, invalid);
        }
        long masks = layout.field("TableSegment", "rgFreeMask").type().count();
        long maskOffset = layout.offset("TableSegment", "rgFreeMask");
        for (int i = 0; i < masks; i++) {
            memory.writeInt(segment + maskOffset + 4L * i, -1); // every slot free
        }
        s.handleTable(table);
        s.nextSegment(0);
        int block = 0;
        for (String kind : KINDS) {
            int type = (int) layout.constant("handle.type." + kind);
            int b = block++;
            s.blockType(b, type);
            s.allocation(b, b); // a circular chain of one block
            s.tail(type, b);
            int userData = -1;
            if (kind.equals("dependent")) {
                userData = block++;
                s.blockType(userData, (int) layout.constant("handle.type.internal_datablock"));
                s.userData(b, userData);
            }
            for (int k = 0; k < perKind && k < perBlock; k++) {
                int index = b * perBlock + k;
                long target = targets.get(random.nextInt(targets.size()));
                long secondary = userData >= 0 ? targets.get(random.nextInt(targets.size())) : 0;
                s.slot(index, target);
                long mask = segment + maskOffset + 4L * (index >>> 5);
                memory.writeInt(mask, memory.readInt(mask) & ~(1 << (index & 31)));
                if (userData >= 0) {
                    s.slot(userData * perBlock + k, secondary);
                }
                handles.add(new Handle(segment + layout.offset("TableSegment", "rgValue") + 8L * index, kind, type, target, secondary, tableIndex));
            }
        }
    }

    /**
     * Adds weak handles to {@code targets} after the ones {@link #build} placed, weak short and weak long in turn, in
     * table 0's blocks of those kinds (as many as the blocks have room for); returns them.
     */
    public List<Handle> addWeak(long[] targets) {
        var memory = process.memory();
        long segment = segments.get(0);
        TableSegment.Writable s = process.views().view(TableSegment.Writable.class, memory, segment);
        int perBlock = (int) layout.constant("handle.handles_per_block");
        long maskOffset = layout.offset("TableSegment", "rgFreeMask");
        List<Handle> added = new ArrayList<>();
        for (int j = 0; j < targets.length; j++) {
            String kind = j % 2 == 0 ? "weak_short" : "weak_long";
            int k = perKind + j / 2;
            if (k >= perBlock) {
                break;
            }
            int block = java.util.Arrays.asList(KINDS).indexOf(kind); // build() gives each kind the block of its place in KINDS
            int index = block * perBlock + k;
            s.slot(index, targets[j]);
            long mask = segment + maskOffset + 4L * (index >>> 5);
            memory.writeInt(mask, memory.readInt(mask) & ~(1 << (index & 31)));
            Handle h = new Handle(segment + layout.offset("TableSegment", "rgValue") + 8L * index, kind, (int) layout.constant("handle.type." + kind),
                    targets[j], 0, 0);
            handles.add(h);
            added.add(h);
        }
        return added;
    }

    /** The objects handles may point to: up to 4,096 live objects sampled evenly over the heap (never one Java object per heap object). */
    private List<Long> objects(Random random) {
        List<Long> objects = new ArrayList<>();
        for (long a : process.truth().sampleObjects(4096, random)) {
            objects.add(a);
        }
        return objects;
    }
}
