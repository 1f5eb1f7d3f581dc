package io.clrheap.walker.discovery;

/** The heap_segment at {@code segment}, in generation {@code generation}'s list of heap {@code heap}, is read next. */
public record SegmentEntered(int heap, int generation, long segment) implements DiscoveryEvent {
}
