package io.clrheap.process;

/** Java code the target's native code calls through a function pointer ({@link NativeCalls#callback}). */
@FunctionalInterface
public interface NativeCallback {

    /** Runs with the call's integer arguments, in order; returns {@code rax}. */
    long invoke(long... arguments);
}
