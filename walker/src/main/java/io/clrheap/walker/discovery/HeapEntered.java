package io.clrheap.walker.discovery;

/** Heap {@code heap} is read next: its gc_heap's fields (server: {@code g_heaps[heap]}; workstation: the statics). */
public record HeapEntered(int heap) implements DiscoveryEvent {
}
