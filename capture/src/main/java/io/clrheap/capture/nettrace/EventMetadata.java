package io.clrheap.capture.nettrace;

/**
 * A metadata record of a MetadataBlock: what kind of event a metadata id stands for.
 *
 * @param id the metadata id events refer to
 * @param provider the provider's name (e.g. Microsoft-Windows-DotNETRuntime)
 * @param eventId the event's id within its provider (GCBulkNode is 18)
 * @param eventName the event's name; empty where the runtime does not write it
 * @param keywords the event's keywords
 * @param version the event's version (GCHeapStats_V2 is 2)
 * @param level the event's level
 */
public record EventMetadata(int id, String provider, int eventId, String eventName, long keywords, int version, int level) {
}
