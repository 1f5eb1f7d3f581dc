package io.clrheap.cli;

import io.clrheap.walker.Dumps;
import io.clrheap.walker.DumpSession;
import io.clrheap.dac.DacCrashException;
import io.clrheap.dac.DacEngine;
import io.clrheap.dac.library.DacException;
import io.clrheap.dac.DacLocator;
import io.clrheap.dac.walk.DacWalkKind;
import io.clrheap.generator.answer.AnswerKeyCheck;
import io.clrheap.generator.answer.DacAnswerKeyCheck;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Both DAC walks of a written fixture against its answer key ({@code generate --check-dac}, {@code demo}): the SOS path
 * must list every object and free object exactly, the DAC's heap walker every object (sizes rounded up to 8), and no
 * DAC call may fail.
 */
final class DacCheck {

    private final PrintWriter out;

    DacCheck(PrintWriter out) {
        this.out = out;
    }

    /** What a check found: whether both walks agree, or why it could not be made. */
    record Outcome(boolean agrees, boolean made, String summary) {
    }

    /**
     * Checks {@code dump} (an ELF core or bundle) against {@code answerDir} with the DAC at {@code dac} (a file or folder;
     * null: found as {@link DacLocator} finds one). Prints one line per walk, and the first differences.
     */
    Outcome check(Path dump, Path answerDir, Path dac) throws IOException, InterruptedException {
        try (DumpSession opened = Dumps.open(dump)) {
            Target target = opened.target();
            DacEngine engine;
            try {
                engine = new DacLocator(System.getenv()).engineFor(Optional.ofNullable(dac), target);
            } catch (DacException e) {
                return new Outcome(false, false, e.getMessage());
            }
            boolean agrees = true;
            StringBuilder summary = new StringBuilder();
            for (DacWalkKind kind : DacWalkKind.values()) {
                String what = kind == DacWalkKind.SOS ? "SOS path (ISOSDacInterface)" : "DAC heap walker (IDacDbiInterface::WalkHeap)";
                try {
                    DacAnswerKeyCheck.Outcome o = DacAnswerKeyCheck.check(engine, dump, target, kind, answerDir, DacEngine.DEFAULT_TIMEOUT);
                    AnswerKeyCheck.Result r = o.result();
                    if (o.agrees()) {
                        out.printf(Locale.ROOT, "DAC %s, %s: agrees with the answer key: %,d objects%s%n", engine.build().runtimeVersion(), what, r.objects(),
                                kind == DacWalkKind.HEAPWALK ? " (free objects skipped, sizes rounded up to 8)" : ", free objects included");
                    } else {
                        agrees = false;
                        out.printf(Locale.ROOT, "DAC %s, %s: DISAGREES with the answer key: %,d objects, %,d expected, %,d differences, %,d failed DAC calls%n",
                                engine.build().runtimeVersion(), what, r.objects(), r.expected(), r.differences(), r.problems());
                        r.first().forEach(line -> out.println("  " + line));
                    }
                    summary.append(kind.name().toLowerCase(Locale.ROOT)).append(' ').append(o.agrees() ? "agrees" : "disagrees").append("; ");
                } catch (DacCrashException e) {
                    agrees = false;
                    out.printf("DAC %s, %s: %s%n", engine.build().runtimeVersion(), what, e.getMessage());
                    summary.append(kind.name().toLowerCase(Locale.ROOT)).append(" crashed; ");
                } catch (DacException e) {
                    agrees = false;
                    out.printf("DAC %s, %s: failed: %s%n", engine.build().runtimeVersion(), what, e.getMessage());
                    summary.append(kind.name().toLowerCase(Locale.ROOT)).append(" failed; ");
                }
            }
            out.flush();
            return new Outcome(agrees, true, summary.toString());
        } catch (io.clrheap.walker.source.DumpFormatException e) {
            return new Outcome(false, false, e.getMessage());
        } catch (TargetException e) {
            return new Outcome(false, false, dump + ": " + e.getMessage());
        }
    }
}
