package io.clrheap.generator.answer;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.truth.GroundTruth;
import io.clrheap.layout.GcFlavor;
import io.clrheap.walker.graph.RootKind;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.sos.SosEeHeap;
import io.clrheap.walker.sos.SosGcHandles;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The answer key's {@code eeheap.txt} and {@code gchandles.txt}: SOS's reports of what the emulator placed, through the
 * formatters {@code walk --eeheap} and {@code walk --handles} print with (docs/reports.md), so a correct walk prints the
 * key's files byte for byte.
 */
final class AnswerKeyReports {

    private AnswerKeyReports() {
    }

    /**
     * SOS's {@code eeheap -gc} (docs/reports.md) of the regions as built: the same text {@code walk --eeheap} prints for
     * the dump, through the one formatter both use.
     */
    static String eeHeap(EmulatedRuntime process) {
        GroundTruth truth = process.groundTruth();
        List<SosEeHeap.Heap> heaps = new ArrayList<>();
        for (int h = 0; h < process.scenario().heaps(); h++) {
            List<SosEeHeap.Segment> parts = new ArrayList<>();
            long gcHeap = 0;
            for (GroundTruth.RegionInfo r : truth.regions()) {
                if (r.heap() == h) {
                    SegmentKind kind = r.frozen() ? SegmentKind.FROZEN : SegmentKind.ofGeneration(r.generation());
                    parts.add(new SosEeHeap.Segment(r.descriptor(), kind, r.mem(), r.end(), r.committed()));
                    gcHeap = r.gcHeap();
                }
            }
            // a segments GC: its generation starts, and one row per small-object segment; the emulated GC leaves
            // generation 0's allocation context empty, as the real dumps hold it
            long[] starts = truth.generationStarts(h);
            heaps.add(SosEeHeap.heap(h, gcHeap, parts, starts == null ? null : new SosEeHeap.GenerationStarts(starts, 0, 0)));
        }
        return new SosEeHeap(process.scenario().gc() == GcFlavor.SERVER, heaps).text();
    }

    /**
     * SOS's {@code gchandles} (docs/reports.md) of the handles as placed: those that hold an object, with its MethodTable,
     * size and type; the same text {@code walk --handles} prints.
     */
    static String gcHandles(GroundTruth truth, Map<Long, String> names) {
        Map<Long, GroundTruth.HandleInfo> byTarget = new HashMap<>();
        List<GroundTruth.HandleInfo> held = truth.handles().stream().filter(h -> h.target() != 0).toList();
        held.forEach(h -> byTarget.put(h.target(), h));
        Map<Long, long[]> objects = new HashMap<>(); // target -> {mt, size}
        truth.forEachObject((address, mt, size, generation, heap, kind) -> {
            if (byTarget.containsKey(address)) {
                objects.put(address, new long[] {mt, size});
            }
        });
        List<SosGcHandles.Handle> rows = new ArrayList<>();
        for (GroundTruth.HandleInfo h : held) {
            long[] object = objects.get(h.target());
            if (object == null) {
                throw new IllegalStateException(String.format(Locale.ROOT, "handle 0x%x holds 0x%x, which is no object placed", h.handle(), h.target()));
            }
            RootKind kind = RootKind.ofHandleType(h.type());
            if (kind == null) {
                throw new IllegalStateException("handle type " + h.type() + " has no root kind");
            }
            rows.add(new SosGcHandles.Handle(h.handle(), kind, h.target(), object[0], object[1], h.secondary(),
                    names.getOrDefault(object[0], String.format(Locale.ROOT, "Unknown (MethodTable: 0x%x)", object[0]))));
        }
        return new SosGcHandles(rows).text();
    }

}
