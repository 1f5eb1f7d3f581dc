package io.clrheap.emulator.threads;

import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.view.AllocContext;
import io.clrheap.layout.view.NativeThread;
import io.clrheap.layout.view.ThreadStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import io.clrheap.emulator.types.TypeSystem;
import io.clrheap.emulator.scenario.TypeDef;
import io.clrheap.emulator.gc.HeapBuilder;
import io.clrheap.emulator.gc.AllocationContext;
import io.clrheap.emulator.gc.Heap;
import io.clrheap.emulator.globals.RuntimeGlobals;
import io.clrheap.emulator.process.Process;
import io.clrheap.emulator.truth.GroundTruth;
import io.clrheap.emulator.process.ProcessLayout;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.scenario.Step;
import io.clrheap.emulator.scenario.Feature;

/**
 * The runtime's threads: native {@code Thread} objects linked in the thread store, each allocating gen0 objects
 * the way the runtime does — bump the pointer inside its allocation context (the JIT_New fast path), and when an
 * object does not fit, turn the rest of the context into a free object and take a new context from its heap's
 * gen0 region (the slow path). The last context of each thread stays live: zero bytes up to its limit.
 *
 * <p>§N: item N of the edge-case list, docs/reference/walker-semantics.md section 7.
 */
public final class ThreadBuilder {

    /** The Linux thread id of the first thread; the others follow. */
    private static final long FIRST_TID = 4242;

    private static final class ThreadState {
        final int index;
        /** The heap it allocates on (gc_reserved_1 under server GC). */
        Heap heap;
        /** Its allocation context, null when it has none (alloc_ptr = alloc_limit = 0). */
        AllocationContext context;
        long address;
        long locals;
        /** Bytes of the contexts it was handed (gc_alloc_context.alloc_bytes: counted when a context is taken, gc.cpp adjust_limit_clr). */
        long allocatedBytes;

        ThreadState(int index, Heap heap) {
            this.index = index;
            this.heap = heap;
        }
    }

    private final Process process;
    private final RuntimeGlobals globals;
    private final HeapBuilder heaps;
    private final TypeSystem types;
    private final RuntimeLayout layout;
    private final List<ThreadState> threads = new ArrayList<>();
    private final long lohThreshold;
    /** Contexts that belong to no thread: the global one and heap 0's gen0 one, when the scenario has them. */
    private AllocationContext globalContext;
    private AllocationContext heapContext;
    /** Where the next allocation goes when threads take turns. */
    private long turn;

    public ThreadBuilder(Process process, RuntimeGlobals globals, HeapBuilder heaps, TypeSystem types) {
        this.process = process;
        this.globals = globals;
        this.heaps = heaps;
        this.types = types;
        this.layout = process.layout();
        this.lohThreshold = layout.constant("loh.threshold");
        for (int i = 0; i < process.scenario().threads(); i++) {
            threads.add(new ThreadState(i, heaps.heaps().get(i % heaps.heaps().size())));
        }
    }

    /** Each thread allocates its share of the scenario's mixed gen0 population through its allocation context. */
    public void allocateGen0(Random random) {
        for (long i = 0; i < process.scenario().gen0Objects(); i++) {
            ThreadState t = threads.get((int) (i % threads.size()));
            TypeSystem.Placed spec = heaps.mixedType(random);
            allocate(t, spec, heaps.mixedCount(spec, random), false);
        }
    }

    /** A program step's gen0 allocations: the threads of the step's heap (or all threads) take turns. */
    public void allocate(Step.Allocate step, Random random) {
        TypeSystem.Placed type = types.placed(types.named(step.type()));
        Step.Lengths.Sampler lengths = step.lengths().sampler(random);
        List<ThreadState> allocating = step.heap() < 0 ? threads
                : threads.stream().filter(t -> t.heap.index == step.heap()).toList();
        if (allocating.isEmpty()) {
            // no thread runs on that heap: the first thread allocates there (under server GC a thread may switch heaps)
            allocating = List.of(threads.get(0));
            allocating.get(0).heap = heaps.heaps().get(step.heap());
            retire(allocating.get(0));
        }
        for (long i = 0; i < step.count(); i++) {
            ThreadState t = allocating.get((int) (turn++ % allocating.size()));
            long count = type.def().hasComponents() ? lengths.next() : 0;
            boolean dies = step.dies() > 0 && random.nextDouble() < step.dies();
            allocate(t, type, count, dies);
        }
    }

    /**
     * One allocation: bump the pointer inside the thread's context (the JIT_New fast path); when the object does not
     * fit, give the context up and take a new one (the slow path). Objects of 85,000 bytes or more go to the LOH.
     */
    private void allocate(ThreadState t, TypeDef spec, long count, boolean dies) {
        allocate(t, types.placed(spec), count, dies);
    }

    private void allocate(ThreadState t, TypeSystem.Placed spec, long count, boolean dies) {
        long size = spec.def().size(count);
        if (size >= lohThreshold) {
            heaps.place(t.heap, 3, spec, count, dies);
            return;
        }
        long step = heaps.step(size);
        if (t.context == null || Long.compareUnsigned(t.context.pointer + step, t.context.limit) > 0) {
            retire(t);
            take(t, heaps.newContext(t.heap, step));
        }
        heaps.writeObject(t.context.run, spec, count, dies);
        t.context.pointer += step;
    }

    /** The thread takes a new context; alloc_bytes counts its bytes as the allocator hands them out (gc.cpp adjust_limit_clr). */
    private static void take(ThreadState t, AllocationContext context) {
        t.context = context;
        t.allocatedBytes += context.limit - context.pointer;
    }

    /** Every thread gives its context up, as at the start of a GC. */
    public void retireAll() {
        threads.forEach(this::retire);
    }

    /**
     * The edge cases of contexts, after the program: each takes threads of its own, in this order, from thread 0 on
     * ({@link Feature#threadsNeeded}): one used up exactly, two chained, one left in an older region, one running to its
     * region's end, one at a region's start; then a live global context and a live heap gen0 context.
     */
    public void placeContextEdgeCases() {
        Scenario s = process.scenario();
        int next = 0;
        if (s.has(Feature.EXHAUSTED_CONTEXT)) {
            ThreadState t = threads.get(next++);
            retire(t);
            AllocationContext c = heaps.newContext(t.heap, ProcessLayout.ALLOCATION_QUANTUM - layout.constant("alloc_context.tail_reserve"));
            take(t, c);
            while (c.limit - c.pointer >= 48) {
                heaps.writeObject(c.run, TypeDef.OBJECT, 0, false);
                c.pointer += 24;
            }
            long rest = c.limit - c.pointer; // 24..40 bytes: one byte[] fills them exactly
            heaps.writeObject(c.run, TypeDef.BYTE_ARRAY, rest - 24, false);
            c.pointer = c.limit;
        }
        if (s.has(Feature.CHAINED_CONTEXTS)) {
            // two threads take fresh contexts on one heap, one after the other: the second starts where the first's reserve ends
            Heap heap = threads.get(next).heap;
            for (ThreadState t : List.of(threads.get(next), threads.get(next + 1))) {
                retire(t);
                t.heap = heap;
                take(t, heaps.newContext(heap, 1024));
            }
            next += 2;
        }
        if (s.has(Feature.CONTEXT_IN_OLDER_REGION)) {
            // §17: one thread keeps a fresh context in its gen0 region while another, on the same heap, starts the next region
            ThreadState stays = threads.get(next++);
            ThreadState moves = threads.get(next++);
            retire(stays);
            retire(moves);
            moves.heap = stays.heap;
            take(stays, heaps.newContext(stays.heap, 1024));
            allocate(stays, TypeDef.LEAF, 0, false);
            heaps.startGen0Region(stays.heap);
            take(moves, heaps.newContext(moves.heap, 1024));
            allocate(moves, TypeDef.LEAF, 0, false);
        }
        if (s.has(Feature.CONTEXT_AT_REGION_END)) {
            // §16: a context running to the end of its gen0 region: limit + 24 == reserved
            ThreadState t = threads.get(next++);
            retire(t);
            take(t, heaps.newContextToRegionEnd(t.heap));
            allocate(t, TypeDef.NODE, 0, false);
        }
        if (s.has(Feature.CONTEXT_AT_REGION_START)) {
            // §11: a context that starts exactly at its gen0 region's mem, nothing allocated in it yet
            ThreadState t = threads.get(next++);
            retire(t);
            heaps.startGen0Region(t.heap);
            take(t, heaps.newContext(t.heap, 512));
        }
        if (s.has(Feature.CONTEXT_AT_GENERATION_START)) {
            // segments GC: a context right after gen0's allocation_start object, two objects allocated in it
            ThreadState t = threads.get(next++);
            retire(t);
            take(t, heaps.newContextAtGen0Start(t.heap, 1024));
            allocate(t, TypeDef.NODE, 0, false);
            allocate(t, TypeDef.LEAF, 0, false);
        }
        if (s.has(Feature.GLOBAL_CONTEXT)) {
            globalContext = liveContext(heaps.heaps().get(0));
        }
        if (s.has(Feature.HEAP_GEN0_CONTEXT)) {
            heapContext = liveContext(heaps.heaps().get(0));
        }
    }

    /** A new context with three objects at its start and free room after them. */
    private AllocationContext liveContext(Heap heap) {
        AllocationContext context = heaps.newContext(heap, 1024);
        for (int i = 0; i < 3; i++) {
            heaps.writeObject(context.run, TypeDef.OBJECT, 0, false);
            context.pointer += 24;
        }
        return context;
    }

    private void writeContext(String owner, long location, AllocationContext context) {
        AllocContext.Writable c = process.views().view(AllocContext.Writable.class, process.memory(), location);
        c.allocPtr(context.pointer);
        c.allocLimit(context.limit);
        process.truth().addContext(new GroundTruth.ContextInfo(owner, location, context.pointer, context.limit));
    }

    /** The unused rest of a context, [alloc_ptr, alloc_limit + 24), becomes a free object when the context is given up. */
    private void retire(ThreadState t) {
        AllocationContext c = t.context;
        if (c == null) {
            return;
        }
        heaps.writeFree(c.run, c.limit + layout.constant("alloc_context.tail_reserve") - c.pointer, GroundTruth.Kind.FREE);
        t.context = null;
    }

    /** The bytes a native Thread takes at least: 9.0.1's (the profile's Thread size, from net9-wks's malloc chunks). */
    private static final long THREAD_SIZE = 0x450;

    /** Writes the Thread objects, their allocation contexts and the thread store. */
    public void writeStructures() {
        var memory = process.memory();
        long linkOffset = layout.offset("Thread", "LinkNext");
        for (ThreadState t : threads) {
            // as large as a real one (9.0.1's is 0x450 bytes: net9-wks) whatever fields the layout names, so that the Linux
            // and Windows layouts of a build, whose last known fields differ, place the threads at the same addresses
            t.address = process.allocateNative("Thread", THREAD_SIZE);
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
                    memory.writePointer(block + layout.offset("ee_alloc_context", "m_CombinedLimit"), t.context == null ? 0 : t.context.limit);
                }
            }
            AllocContext.Writable c = process.views().view(AllocContext.Writable.class, memory, context);
            c.allocPtr(t.context == null ? 0 : t.context.pointer);
            c.allocLimit(t.context == null ? 0 : t.context.limit);
            c.allocBytes(t.allocatedBytes);
            if (process.server()) {
                c.gcReserved1(t.heap.gcHeapObject);
                c.gcReserved2(t.heap.gcHeapObject);
            }
            process.truth().addThread(new GroundTruth.ThreadInfo(t.index + 1, FIRST_TID + t.index, t.address, t.heap.index, context, t.allocatedBytes));
            if (t.context != null) {
                process.truth().addContext(new GroundTruth.ContextInfo("thread " + (t.index + 1), context, t.context.pointer, t.context.limit));
            }
        }
        if (globalContext != null) {
            long variable = globals.variable("g_global_alloc_context");
            boolean ee = layout.findType("ee_alloc_context").isPresent();
            writeContext("global", ee ? variable + layout.offset("ee_alloc_context", "m_GCAllocContext") : variable, globalContext);
            if (ee) {
                memory.writePointer(variable + layout.offset("ee_alloc_context", "m_CombinedLimit"), globalContext.limit);
            }
        }
        if (heapContext != null) {
            Heap heap0 = heaps.heaps().get(0);
            writeContext("heap 0 gen0", heap0.generationTable() + layout.offset("generation", "allocation_context"), heapContext);
        }
        long store = process.allocateNative("ThreadStore", 0x100);
        ThreadStore.Writable s = process.views().view(ThreadStore.Writable.class, memory, store);
        s.firstThreadLink(threads.get(0).address + linkOffset);
        // m_ThreadList is an SList (slist.h): the head link, a pointer to that head, the last thread's link
        memory.writePointer(store + layout.offset("ThreadStore", "ThreadListHead"), store + layout.offset("ThreadStore", "FirstThreadLink"));
        memory.writePointer(store + layout.offset("ThreadStore", "ThreadListTail"), threads.get(threads.size() - 1).address + linkOffset);
        s.threadCount(threads.size());
        s.backgroundCount(threads.size() - 1);
        memory.writePointer(globals.variable("ThreadStore::s_pThreadStore"), store);
        memory.writePointer(globals.variable("g_pFinalizerThread"), threads.get(threads.size() - 1).address);
    }
}
