package io.clrheap.cli;

import io.clrheap.layout.GcFlavor;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.graph.RootKind;
import io.clrheap.walker.heap.Region;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.heap.SubHeap;
import io.clrheap.walker.sos.SosEeHeap;
import io.clrheap.walker.sos.SosGcHandles;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A heap walker that prints {@code walk --eeheap} or {@code walk --handles} text with one of the mistakes walker authors
 * make, for conform to catch: {@code MistakenReportsWalker MISTAKE DUMP}. It reads the dump as clrheap does and makes
 * exactly that mistake.
 */
public final class MistakenReportsWalker {

    /** The mistakes. */
    enum Mistake {
        /** eeheap: ends the ephemeral region at its heap_segment.allocated, which lags at mem, instead of at alloc_allocated. */
        EPHEMERAL_ENDS_AT_SEGMENT_ALLOCATED,
        /** eeheap: leaves out the read-only (NonGC) segments at the head of heap 0's gen2 list. */
        SKIPS_THE_NONGC_HEAP,
        /** handles: prints each object's size rounded up to the 8-byte alignment, as the walk steps, not its size. */
        ALIGNED_SIZES,
        /** handles: reads a dependent handle as strong, its secondary not read. */
        DEPENDENT_AS_STRONG
    }

    private MistakenReportsWalker() {
    }

    public static void main(String[] args) throws Exception {
        Mistake mistake = Mistake.valueOf(args[0]);
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        try (DumpSession session = Dumps.open(Path.of(args[1]))) {
            switch (mistake) {
                case EPHEMERAL_ENDS_AT_SEGMENT_ALLOCATED, SKIPS_THE_NONGC_HEAP -> out.print(eeHeap(session, mistake).text());
                case ALIGNED_SIZES, DEPENDENT_AS_STRONG -> out.print(handles(session, mistake).text());
            }
        }
        out.flush();
    }

    private static SosEeHeap eeHeap(DumpSession session, Mistake mistake) {
        List<SosEeHeap.Heap> heaps = new ArrayList<>();
        for (SubHeap h : session.heap().heaps()) {
            List<SosEeHeap.Segment> segments = new ArrayList<>();
            for (Region r : h.regions()) {
                if (mistake == Mistake.SKIPS_THE_NONGC_HEAP && r.kind() == SegmentKind.FROZEN) {
                    continue;
                }
                long end = mistake == Mistake.EPHEMERAL_ENDS_AT_SEGMENT_ALLOCATED && r.ephemeral() ? r.allocated() : r.end();
                segments.add(new SosEeHeap.Segment(r.descriptor(), r.kind(), r.mem(), end, r.committed()));
            }
            heaps.add(new SosEeHeap.Heap(h.index(), h.gcHeap(), segments));
        }
        return new SosEeHeap(session.target().gc() == GcFlavor.SERVER, heaps);
    }

    private static SosGcHandles handles(DumpSession session, Mistake mistake) {
        SosGcHandles right = session.gcHandles(session.handleTables(), session.typeNames());
        List<SosGcHandles.Handle> rows = new ArrayList<>();
        for (SosGcHandles.Handle h : right.handles()) {
            if (mistake == Mistake.DEPENDENT_AS_STRONG && h.kind() == RootKind.DEPENDENT) {
                rows.add(new SosGcHandles.Handle(h.handle(), RootKind.STRONG, h.object(), h.methodTable(), h.size(), 0, h.typeName()));
            } else if (mistake == Mistake.ALIGNED_SIZES) {
                rows.add(new SosGcHandles.Handle(h.handle(), h.kind(), h.object(), h.methodTable(), (h.size() + 7) & -8, h.secondary(), h.typeName()));
            } else {
                rows.add(h);
            }
        }
        return new SosGcHandles(rows);
    }
}
