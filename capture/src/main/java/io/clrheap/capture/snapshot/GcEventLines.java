package io.clrheap.capture.snapshot;

import io.clrheap.capture.nettrace.NettraceEvent;
import io.clrheap.capture.nettrace.PayloadException;
import io.clrheap.capture.nettrace.PayloadReader;
import java.util.List;
import java.util.Locale;

/**
 * gc-events.txt's lines: GCStart, GCGenerationRange, GCGlobalHeapHistory, GCPerHeapHistory, GCEnd and GCHeapStats
 * in time order. A GCGenerationRange carries no heap number: the runtime reports each heap's ranges generation 4
 * down to 0 (several regions of one generation in a row), so a generation higher than the previous one starts the
 * next heap. The ranges before the GC's first other event (GCGlobalHeapHistory) are the heap when it started
 * ({@code phase=start}), the later ones the heap after it ({@code phase=end}).
 */
final class GcEventLines {

    private final List<String> out;
    private String phase = "start";
    private int heap = -1;
    private int previousGeneration = -1;
    private boolean rangesInPhase;

    GcEventLines(List<String> out) {
        this.out = out;
    }

    void accept(NettraceEvent e, PayloadReader p) throws PayloadException {
        int version = e.metadata().version();
        long ts = e.timestamp();
        switch (e.metadata().eventId()) {
            case RuntimeEvents.GC_START -> {
                long count = p.u32();
                long depth = version >= 1 ? p.u32() : 0;
                long reason = p.u32();
                long type = version >= 1 ? p.u32() : 0;
                out.add(String.format(Locale.ROOT, "GCStart count=%d depth=%d reason=%d type=%d ts=%d", count, depth, reason, type, ts));
                newPhase("start");
            }
            case RuntimeEvents.GC_GENERATION_RANGE -> {
                int generation = p.u8();
                long start = p.i64();
                long used = p.i64();
                long reserved = p.i64();
                if (previousGeneration < 0 || generation > previousGeneration) {
                    heap++;
                }
                previousGeneration = generation;
                rangesInPhase = true;
                out.add(String.format(Locale.ROOT, "GCGenerationRange phase=%s heap=%d gen=%d start=0x%x end=0x%x reservedEnd=0x%x used=%d ts=%d",
                        phase, heap, generation, start, start + used, start + reserved, used, ts));
            }
            case RuntimeEvents.GC_GLOBAL_HEAP_HISTORY -> {
                long finalYoungestDesired = p.i64();
                int heaps = p.i32();
                long condemned = p.u32();
                p.u32(); // Gen0ReductionCount
                long reason = p.u32();
                long mechanisms = p.u32();
                out.add(String.format(Locale.ROOT, "GCGlobalHeapHistory NumHeaps=%d condemned=%d reason=%d globalMechanisms=0x%x finalYoungestDesired=%d",
                        heaps, condemned, reason, mechanisms, finalYoungestDesired));
                endOfStartRanges();
            }
            case RuntimeEvents.GC_PER_HEAP_HISTORY -> {
                out.add("GCPerHeapHistory (" + e.payload().length + " bytes)");
                endOfStartRanges();
            }
            case RuntimeEvents.GC_END -> {
                long count = p.u32();
                long depth = version >= 1 ? p.u32() : 0;
                out.add(String.format(Locale.ROOT, "GCEnd count=%d depth=%d ts=%d", count, depth, ts));
            }
            case RuntimeEvents.GC_HEAP_STATS -> {
                long[] v = new long[8];
                for (int i = 0; i < 8; i++) {
                    v[i] = p.i64();
                }
                long finSize = p.i64();
                long finCount = p.i64();
                long pinned = p.u32();
                long syncBlocks = p.u32();
                long handles = p.u32();
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                        "GCHeapStats gen0=%d gen1=%d gen2=%d loh=%d promoted0=%d promoted1=%d promoted2=%d promoted3=%d finPromotedSize=%d finPromotedCount=%d pinnedObjects=%d syncBlocks=%d gcHandles=%d",
                        v[0], v[2], v[4], v[6], v[1], v[3], v[5], v[7], finSize, finCount, pinned, syncBlocks, handles));
                if (version >= 2) {
                    p.u16();
                    line.append(String.format(Locale.ROOT, " poh=%d promoted4=%d", p.i64(), p.i64()));
                }
                out.add(line.toString());
            }
            default -> {
                // other runtime events (GCSuspendEE, GCTriggered, GCMarkWithType, ...) are not written
            }
        }
    }

    private void endOfStartRanges() {
        if (phase.equals("start") && rangesInPhase) {
            newPhase("end");
        }
    }

    private void newPhase(String p) {
        phase = p;
        heap = -1;
        previousGeneration = -1;
        rangesInPhase = false;
    }
}
