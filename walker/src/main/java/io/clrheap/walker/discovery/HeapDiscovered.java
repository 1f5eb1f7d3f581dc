package io.clrheap.walker.discovery;

import io.clrheap.walker.heap.DiscoveredHeap;

/** Discovery ended with {@code heap}: what it returns. (The in-process path has the dump path's first, then its own.) */
public record HeapDiscovered(DiscoveredHeap heap) implements DiscoveryEvent {
}
