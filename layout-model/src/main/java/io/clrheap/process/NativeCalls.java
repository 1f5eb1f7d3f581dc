package io.clrheap.process;

import io.clrheap.memory.WritableMemory;

/**
 * A process whose native code can be called, as code running inside it calls it: what an in-process heap walker
 * has that a dump does not. Arguments and results are x64 integer registers (the System V / Windows integer
 * arguments in order, {@code this} first for a virtual method); pointers are target addresses.
 *
 * <p>A session of calls sees the process memory as {@link #memory()} and may write to it; what it writes and what
 * the called code writes stays in the session (the process itself is not changed).
 */
public interface NativeCalls {

    /** The process memory as the calls see it, with what the session wrote. */
    WritableMemory memory();

    /**
     * Calls the function at {@code function} and returns what it returns ({@code rax}; 0 for a void function).
     *
     * @throws NativeCallException when there is no function at that address the process can run
     */
    long call(long function, long... arguments);

    /**
     * A function pointer the target's code can call: calling it runs {@code callback} with the call's integer
     * arguments. Valid for the whole session.
     */
    long callback(NativeCallback callback);

    /** A zeroed block of {@code size} bytes of the process's native heap ({@code malloc}), 16-byte aligned. */
    long allocate(long size);

    /** Gives back a block {@link #allocate} returned. */
    void free(long address);
}
