package io.clrheap.capture.nettrace;

/**
 * One event of an EventBlock, its header decoded and its metadata resolved.
 *
 * @param metadata what kind of event it is
 * @param timestamp QPC ticks (the compressed header's deltas summed modulo 2^64)
 * @param threadId the thread the event is about
 * @param captureThreadId the thread that wrote it
 * @param sequenceNumber the capture thread's sequence number
 * @param streamOffset where its header starts in the stream (for messages)
 * @param payload its payload bytes, laid out as the provider's manifest says
 */
public record NettraceEvent(EventMetadata metadata, long timestamp, long threadId, long captureThreadId, int sequenceNumber, long streamOffset,
        byte[] payload) {
}
