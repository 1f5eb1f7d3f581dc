package io.clrheap.dac.sos;

/**
 * {@code GetObjectData} (DacpObjectData), the fields a heap walk uses.
 *
 * @param methodTable the object's MethodTable (mark bits cleared)
 * @param objectType  DacpObjectType: 0 string, 1 free, 2 object, 3 array, 4 other
 * @param size        its size in bytes, unaligned (BaseSize + components × component size)
 */
public record ObjectData(long methodTable, int objectType, long size, long elementTypeHandle, long numComponents, long componentSize) {
}
