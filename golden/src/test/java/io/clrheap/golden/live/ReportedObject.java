package io.clrheap.golden.live;

/**
 * One object the test program allocated and reported about itself ({@code OBJ} line), read inside the process.
 *
 * @param label       the program's name for it ({@code object}, {@code string.empty}, {@code loh.bytes.100000},
 *                    {@code young.node}, {@code small.17}, ...; see HeapProbe.cs)
 * @param address     the object's address (where its MethodTable pointer is)
 * @param methodTable its MethodTable, the first 8 bytes at {@code address}
 * @param size        as a heap walker reports it: BaseSize + component count × component size, <b>unaligned</b> (an
 *                    empty string is 22, {@code byte[7]} is 31); the walk steps by max(align8(size), 24)
 * @param type        the type's full name ({@code System.Byte[]}, {@code ProbeNode}, ...)
 */
public record ReportedObject(String label, long address, long methodTable, long size, String type) {
}
