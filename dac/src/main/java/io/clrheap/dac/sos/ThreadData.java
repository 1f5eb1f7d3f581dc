package io.clrheap.dac.sos;

/**
 * {@code GetThreadData} (DacpThreadData), the fields a heap walk uses.
 *
 * @param address           the Thread
 * @param allocContextPtr   its allocation context's alloc_ptr
 * @param allocContextLimit its alloc_limit
 * @param nextThread        the next Thread in the ThreadStore's list, or 0
 */
public record ThreadData(long address, int corThreadId, int osThreadId, int state, long allocContextPtr, long allocContextLimit,
                         long nextThread) {
}
