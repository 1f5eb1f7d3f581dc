package io.clrheap.walker.discovery;

/** Heap {@code heap}'s generation table, at {@code address} with entries {@code stride} bytes apart, is read next. */
public record GenerationTableEntered(int heap, long address, long stride) implements DiscoveryEvent {
}
