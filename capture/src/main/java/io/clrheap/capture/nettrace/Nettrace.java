package io.clrheap.capture.nettrace;

import java.util.List;

/**
 * A whole nettrace stream: its Trace object and every event, in timestamp order (the runtime writes each thread's
 * buffer as a unit, so a stream's events are not in time order; events with equal timestamps keep stream order).
 */
public record Nettrace(TraceInfo info, List<NettraceEvent> events, long streamBytes) {

    public Nettrace {
        events = List.copyOf(events);
    }
}
