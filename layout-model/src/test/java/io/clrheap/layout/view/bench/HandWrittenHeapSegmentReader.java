package io.clrheap.layout.view.bench;

import io.clrheap.memory.Memory;

/** The baseline: heap_segment fields read at offsets written by hand (dac_heap_segment, gcinterface.dac.h). */
final class HandWrittenHeapSegmentReader {

    private final Memory memory;

    HandWrittenHeapSegmentReader(Memory memory) {
        this.memory = memory;
    }

    long allocated(long segment) {
        return memory.readLong(segment);
    }

    long mem(long segment) {
        return memory.readLong(segment + 0x20);
    }

    long flags(long segment) {
        return memory.readLong(segment + 0x28);
    }

    long next(long segment) {
        return memory.readLong(segment + 0x30);
    }
}
