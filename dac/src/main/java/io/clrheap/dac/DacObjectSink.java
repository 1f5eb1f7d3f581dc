package io.clrheap.dac;

import io.clrheap.walker.heap.Region;

/** An object the DAC reported: address, MethodTable, size, and the region it lies in (null when not known). */
@FunctionalInterface
public interface DacObjectSink {

    void object(long address, long methodTable, long size, Region region);
}
