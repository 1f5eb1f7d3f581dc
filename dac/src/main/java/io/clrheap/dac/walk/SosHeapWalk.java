package io.clrheap.dac.walk;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.clrheap.dac.library.DacCallException;
import io.clrheap.dac.sos.GcHeapData;
import io.clrheap.dac.sos.GcHeapDetails;
import io.clrheap.dac.sos.GenerationData;
import io.clrheap.dac.sos.HeapSegmentData;
import io.clrheap.dac.sos.MethodTableData;
import io.clrheap.dac.sos.ObjectData;
import io.clrheap.dac.sos.SosDac;
import io.clrheap.dac.sos.ThreadData;

/**
 * A heap walk the way SOS's {@code dumpheap} makes it through the DAC: GC heap data and useful globals; the thread
 * store's threads and their allocation contexts; per heap its details and generation table (ISOSDacInterface8, POH
 * included); each generation's chain of regions by {@code GetHeapSegmentData}; then, region by region, objects stepped
 * by the size {@code GetObjectData} gives (aligned to 8), jumping over allocation contexts ({@code alloc_ptr} to
 * {@code alloc_limit} + the minimum object size), with {@code GetMethodTableData} once per MethodTable.
 *
 * <p>Every chase is bounded: thread and region lists by count and a seen-set (a cycle is a failure, not a hang), the
 * object step by the region's end. A failing call is reported and the walk goes on with the next thread, chain or region.
 */
public final class SosHeapWalk {

    /** x64: Align(min_obj_size), the gap the GC leaves after an allocation context's limit (gcpriv.h) */
    private static final long MIN_OBJECT_SIZE = 24;
    public static final int MAX_THREADS = 1 << 16;
    public static final int MAX_REGIONS_PER_CHAIN = 1 << 20;
    /** How many objects between two flushes of the DAC's cache (see {@link SosDac#flush()}). */
    static final int FLUSH_EVERY = 4096;
    private long sinceFlush;

    private record Chain(int heap, int generation, HeapSegmentData segment, long end) {
    }

    private final SosDac sos;
    private final DacWalkListener listener;
    private final Map<Long, Long> contexts = new HashMap<>();
    private final Set<Long> knownMethodTables = new java.util.LinkedHashSet<>();

    public SosHeapWalk(SosDac sos, DacWalkListener listener) {
        this.sos = sos;
        this.listener = listener;
    }

    /** Walks everything; failed calls go to the listener. Throws only when the GC heap cannot be found at all. */
    public void walk() throws DacCallException {
        GcHeapData gc = sos.gcHeapData();
        listener.gcHeapData(gc);
        try {
            listener.usefulGlobals(sos.usefulGlobals());
        } catch (DacCallException e) {
            failed(e);
        }
        threads();
        try {
            sos.globalAllocationContext().ifPresent(c -> {
                listener.globalAllocationContext(c[0], c[1]);
                addContext(c[0], c[1]);
            });
        } catch (DacCallException e) {
            failed(e);
        }
        long[] heaps = gc.serverMode() ? sos.heapList(gc.heapCount()) : new long[] {0};
        int generations = sos.numberGenerations();
        List<Chain> regions = new ArrayList<>();
        for (int i = 0; i < heaps.length; i++) {
            GcHeapDetails details;
            List<GenerationData> table;
            try {
                details = sos.heapDetails(heaps[i]);
                table = sos.hasGenerationTables() ? sos.generationTable(heaps[i], generations) : details.generations();
            } catch (DacCallException e) {
                failed(e);
                continue;
            }
            listener.heap(i, details, table);
            GenerationData gen0 = details.generations().getFirst();
            addContext(gen0.allocContextPtr(), gen0.allocContextLimit());
            // a segments GC lists its ephemeral segment in gen2's chain and starts gen1's and gen0's there too: each
            // segment is walked once (the host splits the ephemeral one by generation, DacHeap)
            Set<Long> walked = new HashSet<>();
            for (int g : listOrder(table.size())) {
                chain(i, g, table.get(g).startSegment(), details, regions, walked);
            }
        }
        for (Chain r : regions) {
            objects(r);
        }
    }

    /**
     * After the walk: {@code GetMethodTableName} for every MethodTable met (the DAC reads the module's metadata for it,
     * which a dump may lack or hold damaged; asked last, so that a DAC dying here leaves the walk whole).
     */
    public void typeNames() {
        for (long mt : knownMethodTables) {
            sos.methodTableName(mt).ifPresent(name -> listener.typeName(mt, name));
        }
    }

    private void threads() {
        long thread;
        try {
            thread = sos.threadStoreData().firstThread();
        } catch (DacCallException e) {
            failed(e);
            return;
        }
        Set<Long> seen = new HashSet<>();
        while (thread != 0) {
            if (!seen.add(thread) || seen.size() > MAX_THREADS) {
                listener.callFailed("GetThreadData (thread list loops back or exceeds " + MAX_THREADS + " threads)", thread, 0x80004005);
                return;
            }
            ThreadData t;
            try {
                t = sos.threadData(thread);
            } catch (DacCallException e) {
                failed(e);
                return;
            }
            listener.thread(t);
            addContext(t.allocContextPtr(), t.allocContextLimit());
            thread = t.nextThread();
        }
    }

    /** gen2's list first (with a segments GC it holds the ephemeral segment), then gen1, gen0, LOH, POH: SOS's eeheap order. */
    private static int[] listOrder(int generations) {
        return java.util.stream.IntStream.concat(java.util.stream.IntStream.of(2, 1, 0), java.util.stream.IntStream.range(3, generations))
                .filter(g -> g < generations).toArray();
    }

    private void addContext(long pointer, long limit) {
        if (pointer != 0) {
            contexts.put(pointer, limit);
        }
    }

    private void chain(int heap, int generation, long first, GcHeapDetails details, List<Chain> regions, Set<Long> walked) {
        Set<Long> seen = new HashSet<>();
        for (long seg = first; seg != 0; ) {
            if (walked.contains(seg)) {
                return; // segments GC: gen1's and gen0's lists start at the ephemeral segment gen2's list holds
            }
            if (!seen.add(seg) || seen.size() > MAX_REGIONS_PER_CHAIN) {
                listener.callFailed("GetHeapSegmentData (heap " + heap + " generation " + generation + " region list loops back)", seg, 0x80004005);
                return;
            }
            HeapSegmentData s;
            try {
                s = sos.heapSegmentData(seg);
            } catch (DacCallException e) {
                failed(e);
                return;
            }
            listener.segment(heap, generation, s);
            // as SOS's DacpHeapSegmentData::Request: the ephemeral region ends at alloc_allocated, the others at allocated
            long end = s.highAllocMark() != 0 ? s.highAllocMark()
                    : s.segmentAddress() == details.ephemeralHeapSegment() ? details.allocAllocated() : s.allocated();
            walked.add(seg);
            regions.add(new Chain(heap, generation, s, end));
            seg = s.next();
        }
    }

    private void objects(Chain r) {
        long object = r.segment().mem();
        long end = r.end();
        while (Long.compareUnsigned(object, end) < 0) {
            Long limit = contexts.get(object);
            if (limit != null && Long.compareUnsigned(limit, object) >= 0) {
                object = limit + MIN_OBJECT_SIZE;
                continue;
            }
            if (++sinceFlush == FLUSH_EVERY) {
                sinceFlush = 0;
                sos.flush();
            }
            ObjectData o;
            try {
                o = sos.objectData(object);
            } catch (DacCallException e) {
                failed(e);
                return; // SOS gives up on the rest of the region too: it cannot know where the next object is
            }
            if (knownMethodTables.add(o.methodTable())) {
                MethodTableData mt = null;
                try {
                    mt = sos.methodTableData(o.methodTable());
                } catch (DacCallException e) {
                    failed(e);
                }
                if (mt != null) {
                    listener.methodTable(o.methodTable(), mt);
                }
            }
            listener.object(object, o.methodTable(), o.size(), r.heap(), r.generation());
            if (o.size() <= 0) {
                listener.callFailed(String.format("GetObjectData (size %d: the walk cannot step over it)", o.size()), object, 0x80004005);
                return;
            }
            // an empty string is 22 bytes and still takes a minimum object's room (gcpriv.h: Align(size), at least min_obj_size)
            object += Math.max((o.size() + 7) & -8L, MIN_OBJECT_SIZE);
        }
    }

    private void failed(DacCallException e) {
        listener.callFailed(e.call(), e.argument(), e.hresult());
    }
}
