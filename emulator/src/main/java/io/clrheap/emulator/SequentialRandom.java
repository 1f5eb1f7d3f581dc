package io.clrheap.emulator;

import java.util.Random;

/**
 * {@link Random}'s generator, draw for draw (the same 48-bit linear congruential formula, so the same seed gives the
 * same numbers from every method), for one thread: the seed is a plain field, not an {@code AtomicLong} updated by
 * compare-and-set at every draw. A build draws tens of millions of numbers on one thread; the atomic update was a
 * locked instruction per draw for a thread safety a build never uses. Every other method of {@link Random} draws
 * through {@link #next(int)}, as its specification says, so overriding it is enough.
 */
final class SequentialRandom extends Random {

    private static final long MULTIPLIER = 0x5DEECE66DL;
    private static final long ADDEND = 0xBL;
    private static final long MASK = (1L << 48) - 1;

    /** Set by {@link #setSeed}, which {@link Random}'s constructor calls: no initializer here, or it would undo that. */
    private long state;

    SequentialRandom(long seed) {
        super(seed);
    }

    @Override
    public synchronized void setSeed(long seed) {
        super.setSeed(seed);
        state = (seed ^ MULTIPLIER) & MASK;
    }

    @Override
    protected int next(int bits) {
        long s = (state * MULTIPLIER + ADDEND) & MASK;
        state = s;
        return (int) (s >>> (48 - bits));
    }
}
