package io.clrheap.dac.dbi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.clrheap.dac.library.CallTrace;
import io.clrheap.dac.com.ComPointer;
import io.clrheap.dac.com.Hresult;
import io.clrheap.dac.library.DacCallException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.function.Consumer;

/**
 * The heap walker of the DAC's debugger interface (IDacDbiInterface, dacdbiinterface.h; in the 9.0.1 build a plain
 * C++ class): {@code CreateHeapWalk} (vtable slot 124), {@code DeleteHeapWalk} (125), {@code WalkHeap} (126). The
 * DAC steps through the heap itself: free objects are skipped, sizes rounded up to 8.
 */
public final class DacDbi {

    private static final int CREATE_HEAP_WALK = 124;
    private static final int DELETE_HEAP_WALK = 125;
    private static final int WALK_HEAP = 126;
    /** COR_HEAPOBJECT: address, size, COR_TYPEID {token1, token2} */
    private static final long HEAP_OBJECT = 32;
    private static final int BATCH = 4096;

    private final ComPointer dbi;
    private final Arena arena;
    private final CallTrace trace;

    public DacDbi(ComPointer dbi, Arena arena, CallTrace trace) {
        this.dbi = dbi;
        this.arena = arena;
        this.trace = trace;
    }

    /**
     * Walks the whole heap, giving each object to {@code sink}; stops after {@code maxObjects} (a bound: a DAC that
     * loops on a damaged heap must not run forever). Returns the number of objects.
     */
    public long walkHeap(Consumer<HeapObject> sink, long maxObjects) throws DacCallException {
        MemorySegment handle = arena.allocate(JAVA_LONG);
        trace.enter("CreateHeapWalk", 0);
        int hr;
        try {
            hr = (int) dbi.method(CREATE_HEAP_WALK, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)).invokeExact(handle);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (Hresult.failed(hr)) {
            throw new DacCallException("CreateHeapWalk", 0, hr);
        }
        long walk = handle.get(JAVA_LONG, 0);
        MethodHandle walkHeap = dbi.method(WALK_HEAP, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS));
        MemorySegment objects = arena.allocate(HEAP_OBJECT * BATCH, 8);
        MemorySegment fetched = arena.allocate(JAVA_INT);
        long count = 0;
        try {
            while (true) {
                fetched.set(JAVA_INT, 0, 0);
                trace.enter("WalkHeap", count);
                try {
                    hr = (int) walkHeap.invokeExact(walk, BATCH, objects, fetched);
                } catch (Throwable t) {
                    throw new IllegalStateException(t);
                }
                if (Hresult.failed(hr)) {
                    throw new DacCallException("WalkHeap", count, hr);
                }
                int n = Math.min(BATCH, fetched.get(JAVA_INT, 0));
                for (int i = 0; i < n; i++) {
                    long at = i * HEAP_OBJECT;
                    sink.accept(new HeapObject(objects.get(JAVA_LONG, at), objects.get(JAVA_LONG, at + 8), objects.get(JAVA_LONG, at + 16)));
                }
                count += n;
                if (hr == Hresult.S_FALSE || n == 0) {
                    return count;
                }
                if (count > maxObjects) {
                    throw new DacCallException("WalkHeap (more than " + maxObjects + " objects: stopped)", count, Hresult.E_FAIL);
                }
            }
        } finally {
            trace.enter("DeleteHeapWalk", 0);
            try {
                dbi.method(DELETE_HEAP_WALK, FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG)).invokeExact(walk);
            } catch (Throwable t) {
                // a failed clean-up of a walk that is over changes nothing the caller sees
            }
        }
    }
}
