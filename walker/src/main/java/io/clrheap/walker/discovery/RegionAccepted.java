package io.clrheap.walker.discovery;

import io.clrheap.walker.heap.Region;

/** A heap_segment read is a region the walk visits (unless a later check, the overlap one, rejects it). */
public record RegionAccepted(Region region) implements DiscoveryEvent {
}
