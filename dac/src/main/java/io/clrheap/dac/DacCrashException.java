package io.clrheap.dac;

import java.util.Optional;
import io.clrheap.dac.library.DacException;

/** The DAC ended its process (SIGSEGV and the like) during a walk: which call it was in, and how the process ended. */
public final class DacCrashException extends DacException {

    private final String lastCall;
    private final String how;

    public DacCrashException(String lastCall, String how, String details) {
        super("the DAC crashed" + (lastCall == null ? "" : " in " + lastCall) + ": " + how + (details.isBlank() ? "" : "\n" + details));
        this.lastCall = lastCall;
        this.how = how;
    }

    /** The DAC call in progress when the process died, e.g. {@code GetObjectData(0x7f...)}; empty when none had started. */
    public Optional<String> lastCall() {
        return Optional.ofNullable(lastCall);
    }

    /** How the process ended, e.g. {@code SIGSEGV at 0x0 (exit code 134)}. */
    public String how() {
        return how;
    }
}
