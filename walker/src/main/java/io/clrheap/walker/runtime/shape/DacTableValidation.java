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

    /** How one entry's check came out. */
    public enum Status {
        /** Its index holds its shape. */
        HOLDS,
        /** Its index does not hold its shape (or breaks dacvars.h order, or disagrees with the contract descriptor). */
        FAILS,
        /** Not checked: its shape refers to another entry that does not hold. */
        UNCHECKED
    }

    /** One entry's index checked: what was seen, or why it does not hold. */
    public record EntryCheck(DacEntry entry, int index, Status status, String text) {

        public boolean holds() {
            return status == Status.HOLDS;
        }

        @Override
        public String toString() {
            return String.format("%s [%d]: %s%s", entry.dacName(), index, switch (status) {
                case HOLDS -> "";
                case FAILS -> "DOES NOT HOLD: ";
                case UNCHECKED -> "NOT CHECKED: ";
            }, text);
        }
    }

    /** The entries whose index does not hold (not those left unchecked because of them). */
    public List<EntryCheck> failures() {
        return checks.stream().filter(c -> c.status() == Status.FAILS).toList();
    }

    /** True when every entry holds its shape. */
    public boolean holds() {
        return checks.stream().allMatch(EntryCheck::holds);
    }
}
