package io.clrheap.walker.graph;

import io.clrheap.layout.RuntimeLayout;
import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.ProblemKind;
import io.clrheap.walker.heap.SubHeap;
import io.clrheap.walker.report.HandleInfo;
import io.clrheap.walker.report.HandleTableWalker;
import java.util.ArrayList;
import java.util.List;

/**
 * The roots a dump holds that need no stack unwinding (docs/reference/object-graph.md): every GC handle with a
 * target (HandleTableWalker), and every heap's finalization queue ({@code CFinalize}: {@code m_Array} split by seven
 * fill pointers; gc.cpp). Stack and register roots, statics reached only through the runtime's own data structures
 * and the DAC's other root sources are not here: docs/walking.md says so.
 *
 * <p>Finalization queue segments (gc.cpp {@code CFinalize}, total_generation_count = 5): segment {@code i} is
 * {@code [i == 0 ? m_Array : fill[i-1], fill[i])}; segments 0-4 hold the objects registered for finalization by
 * generation (POH, LOH, gen2, gen1, gen0: gen_segment(g) = 4 - g), 5 the critical finalizer list and 6 the
 * finalizer list: 5 and 6 are the objects ready for finalization, the ones {@code CFinalize::GcScanRoots} reports.
 */
public final class RootScanner {

    /** Fill pointers of CFinalize (total_generation_count + 2). */
    static final int SEGMENTS = 7;
    /** The first segment of objects ready for finalization (CriticalFinalizerListSeg). */
    static final int FIRST_READY_SEGMENT = 5;
    /** More finalization queue entries than this is no real queue (16 M objects with finalizers). */
    static final long MAX_ENTRIES = 1L << 24;

    private final Memory memory;
    private final RuntimeLayout layout;
    private final List<Problem> problems = new ArrayList<>();

    public RootScanner(Memory memory, RuntimeLayout layout) {
        this.memory = memory;
        this.layout = layout;
    }

    /** The problems met reading the finalization queues (the handle tables' are the HandleTableWalker's). */
    public List<Problem> problems() {
        return problems;
    }

    /** Every root: handles first (in handle table order), then each heap's finalization queue in order. */
    public List<Root> roots(DiscoveredHeap heap, HandleTableWalker handles) {
        List<Root> roots = new ArrayList<>();
        for (HandleInfo h : handles.handles()) {
            RootKind kind = RootKind.ofHandleType(h.typeName());
            if (kind != null && h.target() != 0) {
                roots.add(new Root(kind, h.handle(), h.target(), h.secondary(), h.table()));
            }
        }
        problems.addAll(handles.problems());
        for (SubHeap sub : heap.heaps()) {
            if (sub.finalizeQueue() != 0) {
                finalizationQueue(sub, roots);
            }
        }
        return roots;
    }

    private void finalizationQueue(SubHeap sub, List<Root> roots) {
        long queue = sub.finalizeQueue();
        long fill = layout.offset("CFinalize", "m_FillPointers");
        try {
            long array = memory.readPointer(queue + layout.offset("CFinalize", "m_Array"));
            long end = memory.readPointer(queue + layout.offset("CFinalize", "m_EndArray"));
            long start = array;
            if (Long.compareUnsigned(end, array) < 0 || (end - array) / 8 > MAX_ENTRIES || ((end - array) & 7) != 0) {
                problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, queue, "finalization queue",
                        String.format("heap %d's CFinalize: m_Array 0x%x, m_EndArray 0x%x: not an array of at most %d entries", sub.index(), array, end, MAX_ENTRIES)));
                return;
            }
            for (int segment = 0; segment < SEGMENTS; segment++) {
                long limit = memory.readPointer(queue + fill + 8L * segment);
                if (Long.compareUnsigned(limit, start) < 0 || Long.compareUnsigned(limit, end) > 0 || ((limit - start) & 7) != 0) {
                    problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, queue + fill + 8L * segment, "finalization queue",
                            String.format("heap %d's CFinalize fill pointer %d is 0x%x, outside [0x%x, 0x%x]", sub.index(), segment, limit, start, end)));
                    return;
                }
                RootKind kind = segment >= FIRST_READY_SEGMENT ? RootKind.FINALIZER : RootKind.FINALIZABLE;
                for (long slot = start; slot < limit; slot += 8) {
                    long object = memory.readPointer(slot);
                    if (object != 0) {
                        roots.add(new Root(kind, slot, object, 0, sub.index()));
                    }
                }
                start = limit;
            }
        } catch (MissingMemoryException e) {
            problems.add(new Problem(ProblemKind.UNREADABLE_STRUCTURE, e.address(), "finalization queue",
                    String.format("heap %d's finalization queue cannot be read: %s", sub.index(), e.getMessage())));
        }
    }
}
