package io.clrheap.walker.discovery;

import java.util.ArrayList;
import java.util.List;

/** Keeps every event of a discovery, in order: what {@code clrheap explain} renders, and what tests compare. */
public final class DiscoveryRecorder implements DiscoveryListener {

    private final List<DiscoveryEvent> events = new ArrayList<>();

    @Override
    public void event(DiscoveryEvent event) {
        events.add(event);
    }

    /** The events so far, in the order discovery made them. */
    public List<DiscoveryEvent> events() {
        return List.copyOf(events);
    }
}
