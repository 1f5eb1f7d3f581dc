package io.clrheap.dac.sos;

/** One generation table entry as the DAC reports it (DacpGenerationData). */
public record GenerationData(long startSegment, long allocationStart, long allocContextPtr, long allocContextLimit) {
}
