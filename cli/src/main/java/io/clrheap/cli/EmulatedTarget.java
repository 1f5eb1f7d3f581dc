package io.clrheap.cli;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.profile.RuntimeChoice;
import io.clrheap.process.NativeCalls;
import io.clrheap.walker.source.elf.MappedFile;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetException;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.OpenOptions;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * What {@code --emulate SCENARIO [--runtime] [--gc]} gives walk, map and explain: the scenario's process built in
 * memory and opened as a walker opens a dump (memory and the runtime module's mappings, nothing else), optionally
 * through a session of native calls for the in-process path.
 *
 * @param process the emulated process
 * @param session the walker's view of it, opened through the front door ({@link Dumps#of}); in-process when asked
 * @param calls   the session of native calls the walker reads through, for the in-process path; null otherwise
 */
record EmulatedTarget(EmulatedRuntime process, DumpSession session, NativeCalls calls) {

    /** The walker's view of the runtime. */
    Target target() {
        return session.target();
    }

    /** Why the emulated process could not be built or opened; the command prints it and exits 3. */
    static final class Unavailable extends Exception {
        Unavailable(String message) {
            super(message);
        }
    }

    /**
     * Builds {@code scenario} (a built-in name or a JSON file) on {@code runtime} and {@code gc} (null: the scenario's
     * own) and opens it; {@code inProcess} reads it through a native-call session. {@code note} gets the progress line.
     */
    static EmulatedTarget open(String scenario, RuntimeChoice runtime, GcFlavor gc, boolean inProcess, Consumer<String> note)
            throws Unavailable, IOException {
        EmulatedRuntime process;
        try {
            Scenario s = ScenarioOption.resolve(scenario);
            s = s.on(runtime == null ? s.runtimeChoice() : runtime, gc == null ? s.gc() : gc);
            io.clrheap.emulator.BuildEstimate estimate = io.clrheap.emulator.BuildEstimate.of(s);
            var refusal = BuildCheck.check("--emulate", s, estimate, BuildCheck.needs(estimate, 1, 0, "", null), false, null);
            if (refusal.isPresent()) {
                throw new Unavailable(refusal.get().replaceFirst("^clrheap --emulate: ", "--emulate " + scenario + ": "));
            }
            note.accept(String.format(Locale.ROOT, "building %s (%s, %s GC) ...", s.name(), s.runtimeName(), s.gc().id()));
            process = new RuntimeBuilder().build(s);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new Unavailable("--emulate " + scenario + ": " + e.getMessage());
        }
        NativeCalls calls = inProcess ? process.nativeCalls() : null;
        List<MappedFile> files = process.mappings().stream().map(m -> new MappedFile(m.start(), m.end(), m.fileOffset(), m.path())).toList();
        try {
            OpenOptions options = inProcess ? OpenOptions.DEFAULT.withNativeCalls(calls) : OpenOptions.DEFAULT;
            DumpSession session = Dumps.of(inProcess ? calls.memory() : process.memory(), files, "emulated process",
                    "emulated " + process.scenario().name(), process.typeNames(), options, new EmulatedThreads(process.groundTruth().stacks()));
            return new EmulatedTarget(process, session, calls);
        } catch (TargetException e) {
            throw new Unavailable("the emulated process cannot be opened: " + e.getMessage());
        }
    }
}
