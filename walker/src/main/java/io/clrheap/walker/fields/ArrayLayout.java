package io.clrheap.walker.fields;

import io.clrheap.value.ElementType;

/**
 * An array object as laid out (docs/reference/fields.md section 5): an SZ array's length at +8 and elements from +16;
 * a multi-dimensional one's rank lengths, rank lower bounds, then elements from {@code +16 + 8·rank}.
 *
 * @param elementMethodTable the element type's MethodTable (the array MethodTable's element TypeHandle)
 * @param elementType        the element type's CorElementType (its EEClass's m_NormType)
 * @param rank               1 for an SZ array, else the rank
 * @param szArray            a single-dimension, zero-based array ({@code T[]})
 * @param length             the number of elements (all dimensions)
 * @param componentSize      bytes per element
 * @param data               the first element's address
 * @param lengths            each dimension's length
 * @param lowerBounds        each dimension's lower bound
 */
public record ArrayLayout(long elementMethodTable, int elementType, int rank, boolean szArray, long length, int componentSize, long data,
                          long[] lengths, long[] lowerBounds) {

    /** Element {@code i}'s address. */
    public long element(long i) {
        return data + i * componentSize;
    }

    /** Element {@code i}'s label as dumparray prints it: {@code [i]}, or {@code [i,j]} with each dimension's lower bound added. */
    public String label(long i) {
        if (szArray) {
            return "[" + i + "]";
        }
        long[] index = new long[rank];
        long rest = i;
        for (int d = rank - 1; d >= 0; d--) {
            long n = Math.max(1, lengths[d]);
            index[d] = rest % n + lowerBounds[d];
            rest /= n;
        }
        StringBuilder s = new StringBuilder("[");
        for (int d = 0; d < index.length; d++) {
            s.append(d == 0 ? "" : ",").append(index[d]);
        }
        return s.append(']').toString();
    }

    /** Whether the elements are object references. */
    public boolean references() {
        return ElementType.isReference(elementType) && componentSize == 8;
    }

    /** The record's components, the addresses in hex and the arrays' contents. */
    @Override
    public String toString() {
        return String.format("ArrayLayout[elementMethodTable=0x%x, elementType=0x%x, rank=%d, szArray=%b, length=%d, componentSize=%d, data=0x%x, lengths=%s, lowerBounds=%s]",
                elementMethodTable, elementType, rank, szArray, length, componentSize, data, java.util.Arrays.toString(lengths), java.util.Arrays.toString(lowerBounds));
    }
}
