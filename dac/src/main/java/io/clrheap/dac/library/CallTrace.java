package io.clrheap.dac.library;

/**
 * Told of every DAC call before it is made, so that a crash inside the DAC can be reported with the call that caused it
 * (the child process writes it where the parent can read it after the child died).
 */
@FunctionalInterface
public interface CallTrace {

    /** {@code call} is about to be made with {@code argument} (an address, or 0). */
    void enter(String call, long argument);
}
