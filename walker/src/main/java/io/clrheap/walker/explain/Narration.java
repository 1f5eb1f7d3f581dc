package io.clrheap.walker.explain;

import io.clrheap.walker.discovery.DiscoveryEvent;
import io.clrheap.walker.heap.AllocContextInfo;
import io.clrheap.walker.heap.Region;
import java.util.List;

/**
 * A narrated discovery: the stages it went through and what it ended at.
 *
 * @param subject  what was explained, e.g. {@code .NET 8.0.30, server GC, Sarif.Multitool}
 * @param path     {@code dump} (g_dacTable → GcDacVars) or {@code in-process} (DiagDescrGenerations)
 * @param sections the stages, in order
 * @param regions  the regions the discovery found, in address order
 * @param contexts the allocation contexts the discovery found
 * @param calls    the native calls made, with their callbacks (in-process only; empty on the dump path)
 * @param events   every event of the discovery narrated, in order: the sections render these
 */
public record Narration(String subject, String path, List<ExplainSection> sections, List<Region> regions,
                        List<AllocContextInfo> contexts, List<NativeCallRecord> calls, List<DiscoveryEvent> events) {

    public Narration {
        sections = List.copyOf(sections);
        regions = List.copyOf(regions);
        contexts = List.copyOf(contexts);
        calls = List.copyOf(calls);
        events = List.copyOf(events);
    }
}
