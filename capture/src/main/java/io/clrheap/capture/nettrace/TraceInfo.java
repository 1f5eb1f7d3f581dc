package io.clrheap.capture.nettrace;

/**
 * The Trace object at the head of a nettrace stream.
 *
 * @param syncTimeQpc the timestamp (QPC ticks) of the sync time
 * @param qpcFrequency QPC ticks a second
 * @param pointerSize 8 on x64
 * @param processId the traced process
 * @param processors its processor count
 */
public record TraceInfo(long syncTimeQpc, long qpcFrequency, int pointerSize, int processId, int processors) {
}
