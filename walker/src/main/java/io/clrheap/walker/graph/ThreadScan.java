package io.clrheap.walker.graph;

import io.clrheap.walker.heap.ManagedThread;

/**
 * What the conservative scan did with one managed thread.
 *
 * @param thread   the runtime's thread
 * @param rsp      its stack pointer, 0 when the dump has no registers for it
 * @param stackEnd where the scan stopped (exclusive): the stack's end, or where the dump's memory ran out
 * @param words    the stack words read
 * @param roots    the roots found (slots and registers)
 * @param skipped  why it was not scanned, or null when it was
 */
public record ThreadScan(ManagedThread thread, long rsp, long stackEnd, long words, int roots, String skipped) {

    public boolean scanned() {
        return skipped == null;
    }

    /** The record's components, the addresses in hex. */
    @Override
    public String toString() {
        return String.format("ThreadScan[thread=%s, rsp=0x%x, stackEnd=0x%x, words=%d, roots=%d, skipped=%s]", thread, rsp, stackEnd, words, roots, skipped);
    }
}
