package io.clrheap.walker.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SubHeap;
import io.clrheap.walker.runtime.Target;
import java.io.PrintWriter;

/** {@code eeheap}: per heap, every region with its generation, flags and bounds; then the allocation contexts. */
public final class EeHeapReport {

    private final Target target;
    private final DiscoveredHeap heap;

    public EeHeapReport(Target target, DiscoveredHeap heap) {
        this.target = target;
        this.heap = heap;
    }

    public void print(PrintWriter out) {
        out.printf("%s, %d heap%s%n", target.describe(), heap.heaps().size(), heap.heaps().size() == 1 ? "" : "s");
        for (SubHeap h : heap.heaps()) {
            out.println();
            out.printf("Heap %d%s: generation table 0x%x, alloc_allocated 0x%x, ephemeral heap_segment 0x%x%n", h.index(),
                    h.gcHeap() == 0 ? "" : String.format(" (gc_heap 0x%x)", h.gcHeap()), h.generationTable(), h.allocAllocated(), h.ephemeralSegment());
            out.printf("  %-6s %-14s %-8s %-14s %-14s %-14s %-14s %12s%n", "gen", "heap_segment", "flags", "mem", "end", "committed", "reserved", "size");
            for (Region r : h.regions()) {
                // the in-process path is told mem, allocated and reserved only: what it does not know prints as "-"
                boolean told = r.descriptor() != 0;
                out.printf("  %-6s %-14s %-8s 0x%012x 0x%012x %-14s 0x%012x %,12d%s%n", r.kind().id(), told ? hexPadded(r.descriptor()) : "-",
                        told ? String.format("0x%x", r.flags()) : "-", r.mem(), r.end(), told ? hexPadded(r.committed()) : "-", r.reserved(), r.objectBytes(),
                        r.ephemeral() ? "  ephemeral (ends at alloc_allocated; heap_segment.allocated = 0x" + Long.toHexString(r.allocated()) + ")" : "");
            }
        }
        out.println();
        out.println("Allocation contexts (skipped by the walk: [alloc_ptr, alloc_limit + 24)):");
        out.printf("  %-28s %-14s %-14s %-14s%n", "owner", "context at", "alloc_ptr", "alloc_limit");
        for (AllocContextInfo c : heap.contexts()) {
            if (c.inUse()) {
                out.printf("  %-28s 0x%012x 0x%012x 0x%012x%n", c.owner(), c.location(), c.pointer(), c.limit());
            }
        }
        long unused = heap.contexts().stream().filter(c -> !c.inUse()).count();
        if (unused > 0) {
            out.printf("  (%d more contexts with alloc_ptr 0)%n", unused);
        }
    }

    public ObjectNode toJson() {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("runtime", target.version());
        root.put("gc", target.gc().id());
        root.put("module", target.module().path());
        ArrayNode heaps = root.putArray("heaps");
        for (SubHeap h : heap.heaps()) {
            ObjectNode hj = heaps.addObject();
            hj.put("index", h.index());
            hj.put("gcHeap", hex(h.gcHeap()));
            hj.put("allocAllocated", hex(h.allocAllocated()));
            hj.put("ephemeralSegment", hex(h.ephemeralSegment()));
            ArrayNode regions = hj.putArray("regions");
            for (Region r : h.regions()) {
                ObjectNode rj = regions.addObject();
                rj.put("generation", r.kind().id());
                rj.put("heapSegment", hex(r.descriptor()));
                rj.put("flags", hex(r.flags()));
                rj.put("mem", hex(r.mem()));
                rj.put("end", hex(r.end()));
                rj.put("allocated", hex(r.allocated()));
                rj.put("committed", hex(r.committed()));
                rj.put("reserved", hex(r.reserved()));
                rj.put("ephemeral", r.ephemeral());
            }
        }
        ArrayNode contexts = root.putArray("allocationContexts");
        for (AllocContextInfo c : heap.contexts()) {
            ObjectNode cj = contexts.addObject();
            cj.put("owner", c.owner());
            cj.put("location", hex(c.location()));
            cj.put("allocPtr", hex(c.pointer()));
            cj.put("allocLimit", hex(c.limit()));
        }
        return root;
    }

    static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }

    private static String hexPadded(long value) {
        return String.format("0x%012x", value);
    }
}
