package io.clrheap.dac.fields;

import io.clrheap.dac.DacHeap;
import java.time.Duration;
import java.util.List;

/**
 * What a {@link DacFieldCheck} compared and found.
 *
 * @param methodTables     MethodTables compared (each listed by both)
 * @param fields           FieldDescs compared one to one (each class's own, statics included)
 * @param instanceChains   MethodTables whose whole instance-field list (base-most first) was compared too
 * @param unreadable       MethodTables the DAC could not list because it could not read their module's metadata
 *                         (GetFieldDescData: CORDBG_E_READVIRTUAL_FAILURE; an image neither the dump nor the image
 *                         folders hold): their fields are compared as far as the DAC listed them, and not as a chain
 * @param differences      the first {@link DacFieldCheck#MAX_DIFFERENCES} differences
 * @param differenceCount  all of them
 * @param dacFailures      failed DAC calls (the first thousand)
 * @param dacTime          the DAC's listing, child process included
 * @param walkerTime       the walker's heap walk (when the check chose the MethodTables) and field reads
 */
public record FieldCheckReport(int methodTables, long fields, int instanceChains, List<Long> unreadable, List<FieldDifference> differences,
                               long differenceCount, List<DacHeap.FailedCall> dacFailures, Duration dacTime, Duration walkerTime) {

    public FieldCheckReport {
        unreadable = List.copyOf(unreadable);
        differences = List.copyOf(differences);
        dacFailures = List.copyOf(dacFailures);
    }

    /** One line: counts and times. */
    public String summary() {
        return String.format("%d MethodTables, %d fields, %d instance-field chains compared; %d MethodTables whose metadata the DAC could not read; "
                        + "%d differences, %d failed DAC calls; DAC %d ms, walker %d ms",
                methodTables, fields, instanceChains, unreadable.size(), differenceCount, dacFailures.size(), dacTime.toMillis(), walkerTime.toMillis());
    }
}
