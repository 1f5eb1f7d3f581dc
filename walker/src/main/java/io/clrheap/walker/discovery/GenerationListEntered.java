package io.clrheap.walker.discovery;

/** The region list of generation {@code generation} (3 LOH, 4 POH) of heap {@code heap} is followed from {@code firstSegment}. */
public record GenerationListEntered(int heap, int generation, long firstSegment) implements DiscoveryEvent {
}
