package io.clrheap.walker.heap;

/**
 * A runtime thread of the thread store (threads.h {@code Thread}): what ties a managed thread to the operating system's.
 *
 * @param address   the native {@code Thread} object
 * @param managedId {@code Thread.m_ThreadId}, the managed thread id SOS's clrthreads prints as "ID"
 * @param osId      {@code Thread.m_OSThreadId}: the OS thread id (Linux task id, Windows thread id); 0 when this build's
 *                  layout has no such field or the thread has no OS thread (not started, or dead)
 * @param threadStatics where the thread's non-collectible thread-static array is referenced from
 *                  ({@code ThreadLocalData.pNonCollectibleTlsArrayData}, .NET 9 and later, threadstatics.h); 0 when the
 *                  thread has no ThreadLocalData or the build keeps thread statics elsewhere (.NET 8: in handles)
 */
public record ManagedThread(long address, int managedId, long osId, long threadStatics) {

    public ManagedThread(long address, int managedId, long osId) {
        this(address, managedId, osId, 0);
    }

    /** {@code thread 1 (tid 30152)}: how messages name it. */
    public String describe() {
        return osId == 0 ? "thread " + managedId : "thread " + managedId + " (tid " + osId + ")";
    }

    /** The record's components, the addresses in hex (the thread ids in decimal). */
    @Override
    public String toString() {
        return String.format("ManagedThread[address=0x%x, managedId=%d, osId=%d, threadStatics=0x%x]", address, managedId, osId, threadStatics);
    }
}
