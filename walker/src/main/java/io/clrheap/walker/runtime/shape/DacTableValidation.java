package io.clrheap.walker.runtime.shape;

import java.util.List;

/**
 * What {@link DacTableShapes#validate} found: for each entry of a profile's table, whether its index holds the entry's
 * shape.
 *
 * @param checks one per entry, in dacvars.h order
 */
public record DacTableValidation(List<EntryCheck> checks) {

    public DacTableValidation {
        checks = List.copyOf(checks);
    }

    /** One entry's index checked: {@code holds} with what was seen, or why not. */
    public record EntryCheck(DacEntry entry, int index, boolean holds, String text) {

        @Override
        public String toString() {
            return String.format("%s [%d]: %s%s", entry.dacName(), index, holds ? "" : "DOES NOT HOLD: ", text);
        }
    }

    public List<EntryCheck> failures() {
        return checks.stream().filter(c -> !c.holds()).toList();
    }

    public boolean holds() {
        return failures().isEmpty();
    }
}
