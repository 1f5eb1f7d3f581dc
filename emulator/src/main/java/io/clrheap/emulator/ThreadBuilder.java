package io.clrheap.emulator;

import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.view.AllocContext;
import io.clrheap.layout.view.NativeThread;
import io.clrheap.layout.view.ThreadStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The runtime's threads: native {@code Thread} objects linked in the thread store, each allocating gen0 objects
 * the way the runtime does — bump the pointer inside its allocation context (the JIT_New fast path), and when an
 * object does not fit, turn the rest of the context into a free object and take a new context from its heap's
 * gen0 region (the slow path). The last context of each thread stays live: zero bytes up to its limit.
 */
final class ThreadBuilder {

    /** The Linux thread id of the first thread; the others follow. */
    private static final long FIRST_TID = 4242;

    private static final class ThreadState {
        final int index;
        /** The heap it allocates on (gc_reserved_1 under server GC). */
        HeapBuilder.Heap heap;
        long pointer;
        long limit;
        long address;
        long locals;

        ThreadState(int index, HeapBuilder.Heap heap) {
            this.index = index;
            this.heap = heap;
        }
    }

    private final Process process;
    private final RuntimeGlobals globals;
    private final HeapBuilder heaps;
    private final RuntimeLayout layout;
    private final List<ThreadState> threads = new ArrayList<>();

    ThreadBuilder(Process process, RuntimeGlobals globals, HeapBuilder heaps) {
        this.process = process;
        this.globals = globals;
        this.heaps = heaps;
        this.layout = process.layout();
        for (int i = 0; i < process.scenario().threads(); i++) {
            threads.add(new ThreadState(i, heaps.heaps().get(i % heaps.heaps().size())));
        }
    }

    /** Each thread allocates its share of the gen0 objects through its allocation context. */
    void allocateGen0(Random random) {
        // §11: thread 0 takes the first context of its gen0 region and allocates nothing in it
        boolean atRegionStart = process.scenario().has(Feature.CONTEXT_AT_REGION_START) && threads.size() > 1;
        if (atRegionStart) {
            ThreadState first = threads.get(0);
            long[] context = heaps.newContext(first.heap, 512);
            first.pointer = context[0];
            first.limit = context[1];
        }
        int allocating = atRegionStart ? threads.size() - 1 : threads.size();
        for (int i = 0; i < process.scenario().gen0Objects(); i++) {
            ThreadState t = threads.get(i % allocating + (atRegionStart ? 1 : 0));
            TypeCatalog.TypeSpec spec = TypeCatalog.SMALL.get(random.nextInt(TypeCatalog.SMALL.size()));
            int count = spec.componentSize() == 0 ? 0 : random.nextInt(spec.shape() == TypeCatalog.Shape.STRING ? 48 : 64);
            long step = heaps.step(spec, count);
            if (t.pointer == 0 || Long.compareUnsigned(t.pointer + step, t.limit) > 0) {
                retire(t);
                long[] context = heaps.newContext(t.heap, step);
                t.pointer = context[0];
                t.limit = context[1];
            }
            heaps.writeObject(t.pointer, spec, count, 0, t.heap.index, false);
            t.pointer += step;
        }
    }

    /** Contexts that belong to no thread: the global one and heap 0's gen0 one ([ptr, limit]), when the scenario has them. */
    private long[] globalContext;
    private long[] heapContext;

    /** The edge cases of contexts: one used up exactly, a live global context, a live heap gen0 context. */
    void placeContextEdgeCases() {
        Scenario s = process.scenario();
        if (s.has(Feature.EXHAUSTED_CONTEXT)) {
            ThreadState t = threads.get(0);
            retire(t);
            long[] context = heaps.newContext(t.heap, ProcessLayout.ALLOCATION_QUANTUM - layout.constant("alloc_context.tail_reserve"));
            t.pointer = context[0];
            t.limit = context[1];
            while (t.limit - t.pointer >= 48) {
                heaps.writeObject(t.pointer, TypeCatalog.OBJECT, 0, 0, t.heap.index, false);
                t.pointer += 24;
            }
            long rest = t.limit - t.pointer; // 24..40 bytes: one byte[] fills them exactly
            heaps.writeObject(t.pointer, TypeCatalog.BYTE_ARRAY, rest - 24, 0, t.heap.index, false);
            t.pointer = t.limit;
        }
        if (s.has(Feature.CHAINED_CONTEXTS) && threads.size() > 2) {
            // two threads take fresh contexts on one heap, one after the other: the second starts where the first's reserve ends
            HeapBuilder.Heap heap = threads.get(threads.size() - 2).heap;
            for (ThreadState t : List.of(threads.get(threads.size() - 2), threads.get(threads.size() - 1))) {
                retire(t);
                t.heap = heap;
                long[] context = heaps.newContext(heap, 1024);
                t.pointer = context[0];
                t.limit = context[1];
            }
        }
        if (s.has(Feature.GLOBAL_CONTEXT)) {
            globalContext = liveContext(heaps.heaps().get(0));
        }
        if (s.has(Feature.HEAP_GEN0_CONTEXT)) {
            heapContext = liveContext(heaps.heaps().get(0));
        }
    }

    /** A new context with three objects at its start and free room after them. */
    private long[] liveContext(HeapBuilder.Heap heap) {
        long[] context = heaps.newContext(heap, 1024);
        long pointer = context[0];
        for (int i = 0; i < 3; i++) {
            heaps.writeObject(pointer, TypeCatalog.OBJECT, 0, 0, heap.index, false);
            pointer += 24;
        }
        return new long[] {pointer, context[1]};
    }

    private void writeContext(String owner, long location, long[] context) {
        AllocContext.Writable c = process.views().view(AllocContext.Writable.class, process.memory(), location);
        c.allocPtr(context[0]);
        c.allocLimit(context[1]);
        process.truth().addContext(new GroundTruth.ContextInfo(owner, location, context[0], context[1]));
    }

    /** The unused rest of a context, [alloc_ptr, alloc_limit + 24), becomes a free object when the context is given up. */
    private void retire(ThreadState t) {
        if (t.pointer == 0) {
            return;
        }
        long end = t.limit + layout.constant("alloc_context.tail_reserve");
        heaps.writeFree(t.pointer, end - t.pointer, 0, t.heap.index, GroundTruth.Kind.FREE);
    }

    /** Writes the Thread objects, their allocation contexts and the thread store. */
    void writeStructures() {
        var memory = process.memory();
        long linkOffset = layout.offset("Thread", "LinkNext");
        for (ThreadState t : threads) {
            t.address = process.allocateNative("Thread", 0x200);
            if (layout.type("Thread").findField("RuntimeThreadLocals").isPresent()) {
                t.locals = process.threadLocals().allocate(0x1000, 0x1000);
            }
        }
        for (ThreadState t : threads) {
            NativeThread.Writable thread = process.views().view(NativeThread.Writable.class, memory, t.address);
            thread.state(t.index == 0 ? 0x20020 : 0x21220); // main thread / background threads (the real dumps)
            thread.id(t.index + 1);
            thread.osId(FIRST_TID + t.index);
            ThreadState next = t.index + 1 < threads.size() ? threads.get(t.index + 1) : null;
            thread.linkNext(next == null ? 0 : next.address + linkOffset);
            long context;
            if (thread.hasInlineAllocContext()) {
                context = thread.inlineAllocContext().address();
            } else {
                thread.runtimeThreadLocals(t.locals);
                boolean ee = layout.field("RuntimeThreadLocals", "AllocContext").type().element().equals("ee_alloc_context");
                long block = t.locals + layout.offset("RuntimeThreadLocals", "AllocContext");
                context = ee ? block + layout.offset("ee_alloc_context", "m_GCAllocContext") : block;
                if (ee) {
                    memory.writePointer(block + layout.offset("ee_alloc_context", "m_CombinedLimit"), t.limit);
                }
            }
            AllocContext.Writable c = process.views().view(AllocContext.Writable.class, memory, context);
            c.allocPtr(t.pointer);
            c.allocLimit(t.limit);
            if (process.server()) {
                c.gcReserved1(t.heap.gcHeapObject);
                c.gcReserved2(t.heap.gcHeapObject);
            }
            if (t.pointer != 0) {
                process.truth().addContext(new GroundTruth.ContextInfo("thread " + (t.index + 1), context, t.pointer, t.limit));
            }
        }
        if (globalContext != null) {
            long variable = globals.variable("g_global_alloc_context");
            boolean ee = layout.findType("ee_alloc_context").isPresent();
            writeContext("global", ee ? variable + layout.offset("ee_alloc_context", "m_GCAllocContext") : variable, globalContext);
            if (ee) {
                memory.writePointer(variable + layout.offset("ee_alloc_context", "m_CombinedLimit"), globalContext[1]);
            }
        }
        if (heapContext != null) {
            HeapBuilder.Heap heap0 = heaps.heaps().get(0);
            writeContext("heap 0 gen0", heap0.generationTable() + layout.offset("generation", "allocation_context"), heapContext);
        }
        long store = process.allocateNative("ThreadStore", 0x100);
        ThreadStore.Writable s = process.views().view(ThreadStore.Writable.class, memory, store);
        s.firstThreadLink(threads.get(0).address + linkOffset);
        s.threadCount(threads.size());
        s.backgroundCount(threads.size() - 1);
        memory.writePointer(globals.variable("ThreadStore::s_pThreadStore"), store);
        memory.writePointer(globals.variable("g_pFinalizerThread"), threads.get(threads.size() - 1).address);
    }
}
