package io.clrheap.walker.discovery;

import io.clrheap.walker.heap.SegmentKind;

/**
 * A heap_segment the walk does not visit, and why; for most reasons a {@link ProblemRaised} follows.
 *
 * @param heap    the heap whose list it is in
 * @param kind    its kind (the list's generation, or frozen)
 * @param segment the heap_segment
 * @param reason  why
 */
public record RegionRejected(int heap, SegmentKind kind, long segment, Rejection reason) implements DiscoveryEvent {
}
