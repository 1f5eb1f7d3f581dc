package io.clrheap.walker.source.live;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The target of {@link LiveProcessTest}: a JVM that fills a native buffer with a known pattern, prints
 * {@code 0x<address> <length>} and then waits to be read (at most two minutes).
 */
public final class PatternChild {

    public static final int LENGTH = 5 * 4096 + 123;

    /** The byte at offset {@code i} of the buffer. */
    public static byte pattern(long i) {
        return (byte) (i * 31 + 7 + (i >>> 8));
    }

    public static void main(String[] args) throws InterruptedException {
        MemorySegment buffer = Arena.global().allocate(LENGTH, 4096);
        for (long i = 0; i < LENGTH; i++) {
            buffer.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, pattern(i));
        }
        System.out.printf("0x%x %d%n", buffer.address(), LENGTH);
        System.out.flush();
        Thread.sleep(120_000);
    }
}
