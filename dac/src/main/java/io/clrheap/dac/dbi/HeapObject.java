package io.clrheap.dac.dbi;

/**
 * One object of the DAC's own heap walk (COR_HEAPOBJECT, cordebug.idl): address, size (rounded up to the pointer
 * size), and its type id, whose first token is the MethodTable.
 */
public record HeapObject(long address, long size, long methodTable) {
}
