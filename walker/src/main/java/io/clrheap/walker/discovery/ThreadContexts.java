package io.clrheap.walker.discovery;

import io.clrheap.memory.MissingMemoryException;
import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.heap.ManagedThread;
import io.clrheap.walker.heap.ProblemKind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The thread store and every thread's allocation context (docs/reference/discovery.md section 8):
 * {@code ThreadStore::s_pThreadStore} → {@code FirstThreadLink} → each {@code Thread} (at its {@code m_Link} −
 * {@code LinkNext}) → its context: inline {@code m_alloc_context} on .NET 8, through {@code RuntimeThreadLocals} on 9
 * and 10 (inside an {@code ee_alloc_context} on 10) → the next thread's link.
 */
final class ThreadContexts {

    private final Chase chase;
    private final AllocContextReader contexts;

    /** @param contexts the reader of allocation contexts; null when only {@link #threads()} is asked */
    ThreadContexts(Chase chase, AllocContextReader contexts) {
        this.chase = chase;
        this.contexts = contexts;
    }

    /** Every thread's allocation context, in the thread list's order; a list that cannot be read or does not end is reported and cut. */
    List<AllocContextInfo> read() {
        List<AllocContextInfo> found = new ArrayList<>();
        walk((thread, fields) -> {
            String owner = fields.owner(thread);
            if (chase.listening()) {
                chase.emit(new ThreadIdentified(owner));
                chase.emit(new ContextEntered(owner));
            }
            long location = fields.contextLocation(thread);
            if (location != 0) {
                found.add(contexts.read(owner, location));
            }
        });
        return found;
    }

    /** Every thread of the thread store, in the list's order; a list that cannot be read or does not end is reported and cut. */
    List<ManagedThread> threads() {
        List<ManagedThread> found = new ArrayList<>();
        walk((thread, fields) -> found.add(fields.thread(thread)));
        return found;
    }

    /** What is done with each Thread of the list; a read that fails cuts the list there. */
    @FunctionalInterface
    private interface Visit {
        void thread(long address, Thread fields);
    }

    private void walk(Visit visit) {
        if (chase.listening()) {
            chase.emit(new ThreadStoreEntered());
        }
        long store;
        try {
            store = chase.globalPointer("ThreadStore::s_pThreadStore");
        } catch (MissingMemoryException e) {
            chase.problem(ProblemKind.BAD_THREAD_LIST, 0, "", "the thread store cannot be read: " + e.getMessage(), chase.failedRead());
            return;
        }
        FieldSpec firstLink = chase.field("ThreadStore", "FirstThreadLink");
        long link;
        try {
            link = chase.read(firstLink, store);
        } catch (MissingMemoryException e) {
            chase.problem(ProblemKind.BAD_THREAD_LIST, store, "", "ThreadStore cannot be read: " + e.getMessage(), chase.failedRead());
            return;
        }
        Thread thread = new Thread(chase);
        Set<Long> seen = new HashSet<>();
        // the read that gave the link now followed: what a list that does not end names as the cause
        FieldSpec from = firstLink;
        long fromBase = store;
        while (link != 0) {
            if (!seen.add(link) || seen.size() > chase.limits.maxThreads()) {
                chase.problem(ProblemKind.BAD_THREAD_LIST, link, "", "the thread list does not end; it is cut here", from.at(fromBase));
                break;
            }
            long address = link - thread.linkOffset;
            if (chase.listening()) {
                chase.emit(new ThreadEntered(link, address));
            }
            try {
                visit.thread(address, thread);
                link = chase.read(thread.linkNext, address);
            } catch (MissingMemoryException e) {
                chase.problem(ProblemKind.BAD_THREAD_LIST, address, "", "Thread cannot be read (" + e.getMessage() + "); the list is cut here",
                        chase.failedRead());
                break;
            }
            from = thread.linkNext;
            fromBase = address;
        }
    }

    /** The fields of the native {@code Thread} (threads.h) read, as this build lays them out. */
    private static final class Thread {
        private final Chase chase;
        private final long linkOffset;
        private final FieldSpec id;
        private final FieldSpec osId;
        private final FieldSpec linkNext;
        private final FieldSpec runtimeThreadLocals;
        /** Thread.m_ThreadLocalDataPtr (.NET 9 and later), or null. */
        private final FieldSpec threadLocalData;
        /** ThreadLocalData.pNonCollectibleTlsArrayData's offset, where threadLocalData is known. */
        private final long nonCollectibleArray;
        /** Thread.m_alloc_context's offset (.NET 8), or -1 when the context is in RuntimeThreadLocals. */
        private final long inlineContext;
        /** RuntimeThreadLocals.AllocContext's offset plus, in .NET 10, ee_alloc_context.m_GCAllocContext's. */
        private final long localsContext;

        Thread(Chase chase) {
            this.chase = chase;
            var layout = chase.layout;
            var type = layout.type("Thread");
            this.linkOffset = layout.offset("Thread", "LinkNext");
            this.id = chase.field("Thread", "Id");
            this.osId = type.findField("OSId").isPresent() ? chase.field("Thread", "OSId") : null;
            this.linkNext = chase.field("Thread", "LinkNext");
            boolean statics = type.findField("ThreadLocalDataPtr").isPresent() && layout.findType("ThreadLocalData").isPresent();
            this.threadLocalData = statics ? chase.field("Thread", "ThreadLocalDataPtr") : null;
            this.nonCollectibleArray = statics ? layout.offset("ThreadLocalData", "NonCollectibleTlsArrayData") : 0;
            this.inlineContext = type.findField("m_alloc_context").isPresent() ? layout.offset("Thread", "m_alloc_context") : -1;
            this.runtimeThreadLocals = inlineContext < 0 ? chase.field("Thread", "RuntimeThreadLocals") : null;
            this.localsContext = inlineContext < 0 ? layout.offset("RuntimeThreadLocals", "AllocContext")
                    + HeapDiscovery.gcContextOffsetIn(layout, layout.field("RuntimeThreadLocals", "AllocContext").type().element()) : 0;
        }

        /** {@code thread 1 (tid 30152)}: the managed id, and the OS's where the build has it. */
        String owner(long thread) {
            String owner = "thread " + chase.read(id, thread);
            return osId == null ? owner : owner + " (tid " + chase.read(osId, thread) + ")";
        }

        ManagedThread thread(long thread) {
            long statics = 0;
            if (threadLocalData != null) {
                long data = chase.read(threadLocalData, thread);
                statics = data == 0 ? 0 : data + nonCollectibleArray;
            }
            return new ManagedThread(thread, (int) chase.read(id, thread), osId == null ? 0 : chase.read(osId, thread), statics);
        }

        /** Where the thread's gc_alloc_context is; 0 when it has none (no RuntimeThreadLocals: it never allocated). */
        long contextLocation(long thread) {
            if (inlineContext >= 0) {
                return thread + inlineContext;
            }
            long locals = chase.read(runtimeThreadLocals, thread);
            return locals == 0 ? 0 : locals + localsContext;
        }
    }
}
