package io.clrheap.dac.host;

import io.clrheap.dac.walk.DacWalkKind;

/** What the child process does with the DAC: one of the two heap walks, or a field listing of given MethodTables. */
public enum DacHostJob {
    /** {@link DacWalkKind#SOS} */
    SOS,
    /** {@link DacWalkKind#HEAPWALK} */
    HEAPWALK,
    /** {@link io.clrheap.dac.walk.SosFieldWalk}: the fields of the MethodTables the request lists. */
    FIELDS;

    public static DacHostJob of(DacWalkKind kind) {
        return switch (kind) {
            case SOS -> SOS;
            case HEAPWALK -> HEAPWALK;
        };
    }
}
