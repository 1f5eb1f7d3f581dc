package io.clrheap.dac.library;

/** The DAC could not be loaded or driven (not a crash: a crash ends the child process, see {@link io.clrheap.dac.DacCrashException}). */
public class DacException extends Exception {

    public DacException(String message) {
        super(message);
    }

    public DacException(String message, Throwable cause) {
        super(message, cause);
    }
}
