package io.clrheap.dac.sos;

/** {@code GetThreadStoreData} (DacpThreadStoreData). */
public record ThreadStoreData(int threadCount, int unstartedThreadCount, int backgroundThreadCount, int pendingThreadCount,
                              int deadThreadCount, long firstThread, long finalizerThread, long gcThread) {
}
