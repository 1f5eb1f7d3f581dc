package io.clrheap.walker.runtime.shape;

import io.clrheap.layout.DacTable;
import io.clrheap.layout.RuntimeBuild;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * What {@link DacTableShapes#derive} found: the index of each entry asked for, or why it has none (not found, or
 * ambiguous), and every check made, with addresses.
 *
 * @param length     the table's number of entries
 * @param found      entry → finding, in dacvars.h order
 * @param unresolved entry → why no index is given (not found, ambiguous, or in conflict with the contract descriptor)
 * @param checks     one line per check made
 */
public record DacTableDerivation(int length, Map<DacEntry, EntryFinding> found, Map<DacEntry, String> unresolved, List<String> checks) {

    public DacTableDerivation {
        found = Collections.unmodifiableMap(new EnumMap<>(found.isEmpty() ? new EnumMap<>(DacEntry.class) : found));
        unresolved = Collections.unmodifiableMap(unresolved.isEmpty() ? new EnumMap<>(DacEntry.class) : new EnumMap<>(unresolved));
        checks = List.copyOf(checks);
    }

    /** True when every entry asked for has an index. */
    public boolean complete() {
        return unresolved.isEmpty();
    }

    public OptionalInt indexOf(DacEntry entry) {
        EntryFinding f = found.get(entry);
        return f == null ? OptionalInt.empty() : OptionalInt.of(f.index());
    }

    /**
     * How this table differs from a known build's: for each run of entries (in dacvars.h order) that moved by the same
     * amount, the indexes, and where entries must have been added or removed between two runs; then whether those
     * shifts account for the difference in length.
     */
    public List<String> driftFrom(RuntimeBuild reference) {
        DacTable ref = reference.dacTable();
        List<String> lines = new ArrayList<>();
        Integer runShift = null;
        EntryFinding runFirst = null;
        EntryFinding previous = null;
        int lastShift = 0;
        StringBuilder run = new StringBuilder();
        List<String> runs = new ArrayList<>();
        for (EntryFinding f : found.values()) {
            OptionalInt r = ref.indexOf(f.entry().dacName());
            if (r.isEmpty()) {
                continue;
            }
            int shift = f.index() - r.getAsInt();
            if (runShift == null || shift != runShift) {
                if (runShift != null) {
                    runs.add(describeRun(runFirst, previous, runShift, ref));
                    int delta = shift - runShift;
                    lines.add(String.format("%d entr%s %s between %s (%d) and %s (%d)", Math.abs(delta), Math.abs(delta) == 1 ? "y" : "ies",
                            delta > 0 ? "added" : "removed", previous.entry().dacName(), previous.index(), f.entry().dacName(), f.index()));
                } else if (shift != 0) {
                    lines.add(String.format("%d entr%s %s before %s (%d)", Math.abs(shift), Math.abs(shift) == 1 ? "y" : "ies",
                            shift > 0 ? "added" : "removed", f.entry().dacName(), f.index()));
                }
                runShift = shift;
                runFirst = f;
            }
            previous = f;
            lastShift = shift;
        }
        if (runShift != null) {
            runs.add(describeRun(runFirst, previous, runShift, ref));
        }
        List<String> out = new ArrayList<>();
        out.add(String.format("%d entries against %s's %d (%+d)", length, reference.version(), ref.length(), length - ref.length()));
        out.addAll(runs);
        out.addAll(lines);
        int rest = (length - ref.length()) - lastShift;
        out.add(rest == 0 ? "the shifts account for the whole difference in length"
                : String.format("%d entr%s %s after %s (%d), the last entry compared", Math.abs(rest), Math.abs(rest) == 1 ? "y" : "ies",
                        rest > 0 ? "added" : "removed", previous == null ? "-" : previous.entry().dacName(), previous == null ? -1 : previous.index()));
        return out;
    }

    private static String describeRun(EntryFinding first, EntryFinding last, int shift, DacTable ref) {
        String span = first == last ? first.entry().dacName() + " " + ref.indexOf(first.entry().dacName()).getAsInt() + " -> " + first.index()
                : first.entry().dacName() + " .. " + last.entry().dacName() + " (" + ref.indexOf(first.entry().dacName()).getAsInt() + ".."
                + ref.indexOf(last.entry().dacName()).getAsInt() + " -> " + first.index() + ".." + last.index() + ")";
        return shift == 0 ? "same index: " + span : String.format("moved by %+d: %s", shift, span);
    }
}
