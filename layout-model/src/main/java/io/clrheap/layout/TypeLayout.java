package io.clrheap.layout;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A runtime structure: its size (absent when the runtime leaves it indeterminate, as the cDAC descriptor may)
 * and its known fields, sorted by offset.
 */
public record TypeLayout(String name, OptionalLong size, Provenance sizeProvenance, String description, List<FieldLayout> fields) {

    public TypeLayout {
        fields = List.copyOf(fields);
    }

    public Optional<FieldLayout> findField(String fieldName) {
        for (FieldLayout f : fields) {
            if (f.name().equals(fieldName)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    /** The size if known, else the end of the last known field: enough bytes to hold every known field. */
    public long extent() {
        if (size.isPresent()) {
            return size.getAsLong();
        }
        long end = 0;
        for (FieldLayout f : fields) {
            end = Math.max(end, f.end());
        }
        return end;
    }
}
