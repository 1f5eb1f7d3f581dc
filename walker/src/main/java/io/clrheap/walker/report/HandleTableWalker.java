package io.clrheap.walker.report;

import io.clrheap.layout.Constant;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.view.GcDacVars;
import io.clrheap.layout.view.HandleTable;
import io.clrheap.layout.view.HandleTableBucket;
import io.clrheap.layout.view.HandleTableMap;
import io.clrheap.layout.view.TableSegment;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.ProblemKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Enumerates the GC handles (the cDAC GC contract's handle enumeration, docs/reference/clr-layouts.md section 12): handle table map chain →
 * buckets → one HandleTable per heap → segment chain → per handle type, the circular block chain from
 * {@code rgAllocation[rgTail[type]]} → the 64 slots of each block. A non-zero slot is a handle; a dependent
 * handle's secondary is in the block's user-data block. Every chain is bounded and cycle-checked.
 */
public final class HandleTableWalker {

    /** Segments per table: 64 KiB each, so a million is 64 GiB of handles. */
    private static final int MAX_SEGMENTS = 1 << 20;
    private static final int MAX_MAPS = 1024;

    private final Target target;
    private final Memory memory;
    private final RuntimeLayout layout;
    private final int minimumTables;
    private final List<Problem> problems = new ArrayList<>();

    /**
     * @param heaps the number of heaps. A bucket holds one HandleTable per slot: one under workstation GC, one per
     *              processor under server GC — which can be more than the heaps (DATAS runs fewer heaps than
     *              processors). Slots past {@code heaps} are taken while they hold a table whose segments point back
     *              to it (the array's length is not published before GcDacVars 5.8's TotalCpuCount).
     */
    public HandleTableWalker(Target target, int heaps) {
        this.target = target;
        this.memory = target.memory();
        this.layout = target.layout();
        this.minimumTables = Math.max(1, heaps);
    }

    /** MAX_SUPPORTED_CPUS on 64-bit is 1024 (gcenv); a bucket has no more slots. */
    private static final int MAX_SLOTS = 1024;

    public List<Problem> problems() {
        return problems;
    }

    public List<HandleInfo> handles() {
        GcDacVars vars = target.views().view(GcDacVars.class, memory, target.globalPointer("g_gcDacGlobals"));
        int buckets = (int) layout.constant("handle.initial_table_array_size");
        int blockInvalid = (int) layout.constant("handle.block_invalid");
        int types = (int) layout.constant("handle.max_internal_types");
        int dataBlockType = (int) layout.constant("handle.type.internal_datablock");
        int handlesPerBlock = (int) layout.constant("handle.handles_per_block");
        int blocks = (int) layout.constant("handle.blocks_per_segment");
        Map<Integer, String> typeNames = typeNames();
        List<HandleInfo> handles = new ArrayList<>();
        Set<Long> seenMaps = new HashSet<>();
        Set<Long> seenSegments = new HashSet<>();
        for (long map = vars.handleTableMap(); map != 0; ) {
            if (!seenMaps.add(map) || seenMaps.size() > MAX_MAPS) {
                problems.add(new Problem(ProblemKind.HANDLE_TABLE_CYCLE, map, "handle table map", "the map chain loops; cut here"));
                break;
            }
            HandleTableMap m = target.views().view(HandleTableMap.class, memory, map);
            for (int b = 0; b < buckets; b++) {
                long bucket;
                long tables;
                try {
                    bucket = memory.readPointer(m.buckets() + 8L * b);
                    if (bucket == 0) {
                        continue;
                    }
                    tables = target.views().view(HandleTableBucket.class, memory, bucket).tables();
                } catch (MissingMemoryException e) {
                    // a corrupt map or bucket: the handles of the other buckets are still listed
                    problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, map, "handle table map",
                            "bucket " + b + " cannot be read: " + e.getMessage()));
                    continue;
                }
                int slots = layout.gc() == io.clrheap.layout.GcFlavor.SERVER ? MAX_SLOTS : 1;
                for (int t = 0; t < slots; t++) {
                    long table;
                    try {
                        table = memory.readPointer(tables + 8L * t);
                    } catch (MissingMemoryException e) {
                        break;
                    }
                    if (table == 0) {
                        continue;
                    }
                    if (t >= minimumTables && !isHandleTable(table)) {
                        break; // past the end of the slot array
                    }
                    long segment;
                    try {
                        segment = target.views().view(HandleTable.class, memory, table).segmentList();
                    } catch (MissingMemoryException e) {
                        problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, table, "handle table " + t,
                                "HandleTable cannot be read: " + e.getMessage()));
                        continue;
                    }
                    while (segment != 0) {
                        if (!seenSegments.add(segment) || seenSegments.size() > MAX_SEGMENTS) {
                            problems.add(new Problem(ProblemKind.HANDLE_TABLE_CYCLE, segment, "handle table " + t,
                                    "the segment chain loops or is too long; cut here"));
                            break;
                        }
                        try {
                            TableSegment s = target.views().view(TableSegment.class, memory, segment);
                            for (int type = 0; type < types; type++) {
                                if (type == dataBlockType) {
                                    continue;
                                }
                                int tail = s.tail(type);
                                if (tail == blockInvalid || tail >= blocks) {
                                    continue;
                                }
                                int head = s.allocation(tail);
                                int block = head;
                                for (int guard = 0; guard < blocks && block < blocks; guard++) {
                                    int blockType = s.blockType(block);
                                    int userData = s.userData(block);
                                    for (int k = 0; k < handlesPerBlock; k++) {
                                        int index = block * handlesPerBlock + k;
                                        // a clear bit in rgFreeMask is an allocated handle, whatever it holds (a weak
                                        // handle whose target died holds 0)
                                        if ((s.freeMask(index >>> 5) & (1 << (index & 31))) != 0) {
                                            continue;
                                        }
                                        long value = s.slot(index);
                                        long secondary = userData != blockInvalid && userData < blocks
                                                ? s.slot(userData * handlesPerBlock + k) : 0;
                                        long handle = segment + layout.offset("TableSegment", "rgValue") + 8L * index;
                                        handles.add(new HandleInfo(handle, blockType,
                                                typeNames.getOrDefault(blockType, "type_" + blockType), value, secondary, t));
                                    }
                                    block = s.allocation(block);
                                    if (block == head) {
                                        break;
                                    }
                                }
                            }
                            segment = s.nextSegment();
                        } catch (MissingMemoryException e) {
                            problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, segment, "handle table " + t,
                                    "handle table segment cannot be read: " + e.getMessage()));
                            break;
                        }
                    }
                }
            }
            try {
                map = m.next();
            } catch (MissingMemoryException e) {
                problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, map, "handle table map",
                        "the map's next pointer cannot be read: " + e.getMessage()));
                break;
            }
        }
        handles.sort((a, b) -> Long.compareUnsigned(a.handle(), b.handle()));
        return handles;
    }

    /** A HandleTable whose first segment's pHandleTable points back to it. */
    private boolean isHandleTable(long table) {
        try {
            long segment = target.views().view(HandleTable.class, memory, table).segmentList();
            return segment != 0 && target.views().view(TableSegment.class, memory, segment).handleTable() == table;
        } catch (MissingMemoryException e) {
            return false;
        }
    }

    /** handle.type.strong = 2 → {2: "strong"}. */
    private Map<Integer, String> typeNames() {
        Map<Integer, String> names = new HashMap<>();
        for (Constant c : layout.constants().values()) {
            if (c.name().startsWith("handle.type.") && !c.name().equals("handle.type.internal_datablock")) {
                names.putIfAbsent((int) c.value(), c.name().substring("handle.type.".length()));
            }
        }
        return names;
    }
}
