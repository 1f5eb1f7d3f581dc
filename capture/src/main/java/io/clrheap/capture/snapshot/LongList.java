package io.clrheap.capture.snapshot;

import java.util.Arrays;

/** A growable array of longs (millions of nodes and edges without a boxed object each). */
final class LongList {

    private long[] values = new long[1024];
    private int size;

    void add(long v) {
        if (size == values.length) {
            values = Arrays.copyOf(values, Math.multiplyExact(values.length, 2));
        }
        values[size++] = v;
    }

    long get(int i) {
        if (i >= size) {
            throw new IndexOutOfBoundsException(i + " of " + size);
        }
        return values[i];
    }

    int size() {
        return size;
    }
}
