package io.clrheap.walker.discovery;

/**
 * The in-process path found the {@code GCHeap} it calls: from {@code owner}'s allocation context at
 * {@code allocContext} ({@code gc_reserved_1}, server GC), or from {@code g_pGCHeap} (owner empty, allocContext 0).
 */
public record GcHeapFound(String owner, long allocContext, long gcHeap) implements DiscoveryEvent {
}
