package io.clrheap.dac.sos;

/** {@code GetGCHeapData}: the GC's flavour and shape (DacpGcHeapData). */
public record GcHeapData(boolean serverMode, boolean structuresValid, int heapCount, int maxGeneration) {
}
