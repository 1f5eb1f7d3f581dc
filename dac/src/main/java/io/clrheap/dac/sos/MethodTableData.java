package io.clrheap.dac.sos;

/**
 * {@code GetMethodTableData} (DacpMethodTableData).
 *
 * @param canonical the canonical MethodTable (the field SOS calls Class)
 */
public record MethodTableData(boolean free, long module, long canonical, long parent, int numInterfaces, int baseSize,
                              int componentSize, int token, boolean containsPointers) {
}
