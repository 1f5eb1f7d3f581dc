package io.clrheap.walker.runtime.shape;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link GcHeapShapes#derive} found for a server GC's {@code gc_heap}: every field of the profile's gc_heap with
 * its offset in this build, or why it has none.
 *
 * @param heaps      the number of heaps it was checked on
 * @param fields     field name → finding, by offset
 * @param unresolved field name → why it has no offset
 * @param checks     one line per check made
 */
public record GcHeapDerivation(int heaps, Map<String, FieldFinding> fields, Map<String, String> unresolved, List<String> checks) {

    public GcHeapDerivation {
        Map<String, FieldFinding> sorted = new LinkedHashMap<>();
        fields.values().stream().sorted(java.util.Comparator.comparingLong(FieldFinding::offset).thenComparing(FieldFinding::field))
                .forEach(f -> sorted.put(f.field(), f));
        fields = Collections.unmodifiableMap(sorted);
        unresolved = Collections.unmodifiableMap(new java.util.TreeMap<>(unresolved));
        checks = List.copyOf(checks);
    }

    public boolean complete() {
        return unresolved.isEmpty();
    }
}
