package io.clrheap.walker.discovery;

/**
 * Sees discovery as it goes: every memory read it makes and where it is in the chase (a heap entered, a region
 * accepted or rejected, a thread, an allocation context, a problem raised). {@code clrheap explain} renders these
 * events; a walk passes {@link #NONE}, and discovery then builds no event at all.
 */
@FunctionalInterface
public interface DiscoveryListener {

    /** Listens to nothing: discovery skips building its events. */
    DiscoveryListener NONE = event -> {
    };

    void event(DiscoveryEvent event);
}
