package io.clrheap.walker.explain;

import io.clrheap.memory.WritableMemory;
import io.clrheap.process.NativeCallException;
import io.clrheap.process.NativeCalls;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * A {@link NativeCalls} that passes every call on and records it: the function, the arguments, the result and the
 * arguments of every callback the called code made. A listener sees each call as soon as it returns, before the
 * caller goes on — so the narrator can read what a call was given (the segment_info of RegisterFrozenSegment) before
 * the caller frees it. With the discovery's events, lets {@code explain} narrate
 * {@link io.clrheap.walker.discovery.InProcessDiscovery} without a chase of its own.
 */
public final class RecordingNativeCalls implements NativeCalls {

    private final NativeCalls calls;
    private final Consumer<NativeCallRecord> afterCall;
    private final List<NativeCallRecord> records = new ArrayList<>();
    /** The callbacks of the calls running now, innermost last (a callback could itself call). */
    private final List<List<List<Long>>> running = new ArrayList<>();

    public RecordingNativeCalls(NativeCalls calls, Consumer<NativeCallRecord> afterCall) {
        this.calls = calls;
        this.afterCall = afterCall;
    }

    /** Every call made so far, in the order made. */
    public List<NativeCallRecord> records() {
        return List.copyOf(records);
    }

    @Override
    public WritableMemory memory() {
        return calls.memory();
    }

    @Override
    public long call(long function, long... arguments) {
        List<List<Long>> callbacks = new ArrayList<>();
        running.add(callbacks);
        long result = 0;
        String failure = "";
        try {
            result = calls.call(function, arguments);
            return result;
        } catch (NativeCallException e) {
            failure = e.getMessage();
            throw e;
        } finally {
            running.remove(running.size() - 1);
            NativeCallRecord record = new NativeCallRecord(function, Arrays.stream(arguments).boxed().toList(), result, callbacks, failure);
            records.add(record);
            afterCall.accept(record);
        }
    }

    @Override
    public long callback(io.clrheap.process.NativeCallback callback) {
        return calls.callback(args -> {
            if (!running.isEmpty()) {
                running.get(running.size() - 1).add(Arrays.stream(args).boxed().toList());
            }
            return callback.invoke(args);
        });
    }

    @Override
    public long allocate(long size) {
        return calls.allocate(size);
    }

    @Override
    public void free(long address) {
        calls.free(address);
    }
}
