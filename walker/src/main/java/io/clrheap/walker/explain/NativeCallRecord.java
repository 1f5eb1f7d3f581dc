package io.clrheap.walker.explain;

import java.util.List;

/**
 * One native call made into the process, as {@link RecordingNativeCalls} saw it.
 *
 * @param function  the code address called
 * @param arguments the integer arguments ({@code this} first for a virtual method)
 * @param result    what it returned ({@code rax}; 0 for a void function or a call that failed)
 * @param callbacks the arguments of every callback it made, in order
 * @param failure   why the call failed, or empty
 */
public record NativeCallRecord(long function, List<Long> arguments, long result, List<List<Long>> callbacks, String failure) {

    public NativeCallRecord {
        arguments = List.copyOf(arguments);
        callbacks = callbacks.stream().map(List::copyOf).toList();
    }
}
