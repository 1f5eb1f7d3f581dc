package io.clrheap.capture.nettrace;

/**
 * What a nettrace reader accepts before it refuses a stream: every count and size read from the stream is compared
 * with these before anything is allocated for it.
 *
 * @param maxBlockBytes the largest block (EventBlock, MetadataBlock, StackBlock, SPBlock) payload
 * @param maxEvents the most events (and metadata records) in the whole stream
 * @param maxBulkCount the most values one GC bulk event may declare (GCBulkNode, GCBulkEdge, GCBulkType, ...)
 * @param maxStringChars the longest UTF-16 string in a payload
 */
public record NettraceLimits(int maxBlockBytes, long maxEvents, int maxBulkCount, int maxStringChars) {

    /** 64 MiB blocks (the runtime writes about 100 KiB), 50 M events, 1 M values an event, 64 Ki characters a string. */
    public static final NettraceLimits DEFAULT = new NettraceLimits(64 << 20, 50_000_000L, 1 << 20, 1 << 16);

    public NettraceLimits {
        if (maxBlockBytes <= 0 || maxEvents <= 0 || maxBulkCount <= 0 || maxStringChars <= 0) {
            throw new IllegalArgumentException("every nettrace limit is positive: " + maxBlockBytes + ", " + maxEvents + ", " + maxBulkCount + ", " + maxStringChars);
        }
    }
}
