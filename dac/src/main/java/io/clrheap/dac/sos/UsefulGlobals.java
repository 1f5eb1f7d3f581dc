package io.clrheap.dac.sos;

/** {@code GetUsefulGlobals}: the class MethodTables the runtime keeps in globals (DacpUsefulGlobalsData). */
public record UsefulGlobals(long arrayMethodTable, long stringMethodTable, long objectMethodTable, long exceptionMethodTable,
                            long freeMethodTable) {
}
