package io.clrheap.walker.discovery;

import io.clrheap.walker.heap.AllocContextInfo;

/** An allocation context was read (alloc_ptr and alloc_limit 0 when its memory is missing; a problem says so). */
public record ContextFound(AllocContextInfo context) implements DiscoveryEvent {
}
