package io.clrheap.dac.walk;

/** Which of the DAC's two heap walks to run. */
public enum DacWalkKind {
    /** The SOS path (ISOSDacInterface): heaps, generations, regions, threads, then GetObjectData object by object. */
    SOS,
    /** The DAC's own heap walker (IDacDbiInterface CreateHeapWalk / WalkHeap), as the debugger uses it. */
    HEAPWALK
}
