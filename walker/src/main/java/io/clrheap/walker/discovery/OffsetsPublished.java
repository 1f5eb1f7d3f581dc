package io.clrheap.walker.discovery;

/**
 * A field offset array the GC publishes in GcDacVars is read next: {@code generation_field_offsets} (int32[3]) or
 * {@code gc_heap_field_offsets} (int32[count], in the profile's {@code dacFieldOrder.gc_heap} order).
 */
public record OffsetsPublished(String array, long address, int count) implements DiscoveryEvent {
}
