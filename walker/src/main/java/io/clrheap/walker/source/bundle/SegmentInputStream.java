package io.clrheap.walker.source.bundle;

import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/** The bytes of a mapped segment as a stream (any size: offsets are longs). */
final class SegmentInputStream extends InputStream {

    private final MemorySegment segment;
    private long position;

    SegmentInputStream(MemorySegment segment) {
        this.segment = segment;
    }

    @Override
    public int read() {
        return position < segment.byteSize() ? segment.get(ValueLayout.JAVA_BYTE, position++) & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        long left = segment.byteSize() - position;
        if (left <= 0) {
            return -1;
        }
        int n = (int) Math.min(len, left);
        MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, position, b, off, n);
        position += n;
        return n;
    }

    @Override
    public long skip(long n) {
        long skipped = Math.max(0, Math.min(n, segment.byteSize() - position));
        position += skipped;
        return skipped;
    }

    @Override
    public int available() {
        return (int) Math.min(Integer.MAX_VALUE, segment.byteSize() - position);
    }
}
