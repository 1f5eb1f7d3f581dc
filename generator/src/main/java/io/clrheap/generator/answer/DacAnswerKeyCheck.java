package io.clrheap.generator.answer;

import io.clrheap.dac.DacEngine;
import io.clrheap.dac.library.DacException;
import io.clrheap.dac.DacHeap;
import io.clrheap.dac.walk.DacWalkKind;
import io.clrheap.dac.sos.UsefulGlobals;
import io.clrheap.walker.runtime.Target;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Walks a dump through Microsoft's DAC and compares what it reports with the answer key: the SOS path must report
 * every object and free object with its MethodTable and unaligned size, the DAC's heap walker every object (not free
 * or padding objects) with its size rounded up to 8; nothing else, and no DAC call may fail. On the SOS path
 * {@code GetUsefulGlobals} must also name all four class MethodTables (Object, String, Array, Free).
 */
public final class DacAnswerKeyCheck {

    /** The check's outcome, and everything the DAC said. */
    public record Outcome(DacWalkKind kind, AnswerKeyCheck.Result result, DacHeap heap) {
        public boolean agrees() {
            return result.agrees();
        }
    }

    private DacAnswerKeyCheck() {
    }

    public static Outcome check(DacEngine dac, Path dump, Target target, DacWalkKind kind, Path answerDir, Duration timeout)
            throws DacException, IOException, InterruptedException {
        AddressOrderedObjects objects = new AddressOrderedObjects();
        DacHeap heap = dac.walk(dump, target, kind, objects::add, timeout);
        ObjectKeyComparison.Mode mode = kind == DacWalkKind.SOS ? ObjectKeyComparison.Mode.EXACT : ObjectKeyComparison.Mode.HEAP_WALKER;
        try (ObjectKeyComparison comparison = new ObjectKeyComparison(answerDir, mode, "the DAC")) {
            long problems = heap.failureCount();
            heap.failures().forEach(f -> comparison.note("DAC call failed: " + f));
            heap.namesCrash().ifPresent(crash -> comparison.note("type names (not checked here): " + crash));
            if (kind == DacWalkKind.SOS) {
                UsefulGlobals g = heap.usefulGlobals();
                if (g == null || g.objectMethodTable() == 0 || g.stringMethodTable() == 0 || g.arrayMethodTable() == 0 || g.freeMethodTable() == 0) {
                    problems++;
                    comparison.note("GetUsefulGlobals does not name all four class MethodTables: " + g);
                }
            }
            objects.replay((address, mt, size, region) -> comparison.object(address, mt, size));
            return new Outcome(kind, comparison.finish(problems), heap);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
