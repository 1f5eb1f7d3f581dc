package io.clrheap.emulator.scenario;

import java.util.Locale;

/** One step of a scenario's allocation program, run in order after the scenario's counted populations are placed. */
public sealed interface Step permits Step.Allocate, Step.Collect {

    /** Where allocated objects go. */
    enum Where {
        /** Allocated by the threads through their allocation contexts (the JIT_New fast path, then the slow path). */
        GEN0,
        /** Placed in gen1 regions, as survivors of one GC. */
        GEN1,
        /** Placed in gen2 regions, as survivors of several GCs. */
        GEN2,
        /** The large object heap: each object after its 32-byte padding free object. */
        LOH,
        /** The pinned object heap. */
        POH,
        /** The frozen (non-GC) segment: strings only, as the runtime's frozen string literals. */
        FROZEN;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Where parse(String id) {
            try {
                return valueOf(id.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown place '" + id + "' (known: gen0, gen1, gen2, loh, poh, frozen)");
            }
        }
    }

    /**
     * Allocates {@code count} objects of one type.
     *
     * @param type    a built-in type's name or one the scenario defines
     * @param count   how many
     * @param lengths the component counts of arrays and strings (ignored for fixed-size types)
     * @param where   where they go; small-object places route objects of 85,000 bytes or more to the LOH, as the runtime does
     * @param heap    the heap they go to (server GC), or -1 for all heaps in turn
     * @param dies    the fraction of them that is garbage at the next collection
     */
    record Allocate(String type, long count, Lengths lengths, Where where, int heap, double dies) implements Step {
        public Allocate {
            if (count < 0 || count > 1_000_000_000L) {
                throw new IllegalArgumentException("allocate " + type + ": count must be 0..1,000,000,000, not " + count);
            }
            if (dies < 0 || dies > 1) {
                throw new IllegalArgumentException("allocate " + type + ": dies is a fraction in [0, 1], not " + dies);
            }
            if (heap < -1 || heap >= 64) {
                throw new IllegalArgumentException("allocate " + type + ": heap must be -1 (all) or 0..63, not " + heap);
            }
            if (where == Where.FROZEN && dies > 0) {
                throw new IllegalArgumentException("allocate " + type + ": frozen objects never die (dies must be 0)");
            }
        }
    }

    /**
     * A garbage collection of generations 0..{@code generation}: every allocation context is given up (its rest becomes
     * a free object), the objects that die in the condemned generations become free objects (neighbours merged, LOH
     * objects keeping their padding), and the survivors' regions are promoted in place (gen0 regions become gen1, gen1
     * regions gen2); each heap then allocates in a fresh gen0 region. A gen2 collection sweeps the LOH and POH too.
     */
    record Collect(int generation) implements Step {
        public Collect {
            if (generation < 0 || generation > 2) {
                throw new IllegalArgumentException("collect: generation must be 0, 1 or 2, not " + generation);
            }
        }
    }

    /** How component counts are drawn. */
    record Lengths(Distribution distribution, long min, long max) {
        public Lengths {
            if (min < 0 || max < min || max > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("lengths: need 0 <= min <= max <= 2^31-1, not [" + min + ", " + max + "]");
            }
            if (distribution == Distribution.FIXED && min != max) {
                throw new IllegalArgumentException("lengths: a fixed length has min == max");
            }
        }

        public static Lengths fixed(long n) {
            return new Lengths(Distribution.FIXED, n, n);
        }

        public static Lengths uniform(long min, long max) {
            return new Lengths(Distribution.UNIFORM, min, max);
        }

        public static Lengths logUniform(long min, long max) {
            return new Lengths(Distribution.LOG_UNIFORM, min, max);
        }

        long draw(java.util.Random random) {
            return sampler(random).next();
        }

        /** Draws component counts one after the other. */
        public interface Sampler {
            long next();
        }

        /** A sampler over {@code random}, with what each draw needs worked out once. */
        public Sampler sampler(java.util.Random random) {
            return switch (distribution) {
                case FIXED -> () -> min;
                case UNIFORM -> max == min ? () -> min : () -> min + random.nextLong(max - min + 1);
                case LOG_UNIFORM -> {
                    // many short, few long: uniform in log(1 + n)
                    double span = Math.log1p(max - min);
                    yield () -> Math.min(max, min + floorExpm1(random.nextDouble() * span));
                }
            };
        }

        /**
         * {@code (long) Math.expm1(x)} for {@code x >= 0}, exactly, mostly without {@code Math.expm1}: that one is
         * fdlibm in Java (a fifth of a GiB-sized build's own work when it draws millions of log-uniform lengths), while
         * {@code Math.exp} is a compiler intrinsic. Both are within 1 ulp of the exact value (their specifications), so
         * {@code exp(x) - 1} is within a few ulps of {@code expm1(x)}: when it is farther than that from every integer,
         * both truncate to the same integer; otherwise (near an integer, and near 0) {@code Math.expm1} decides.
         */
        static long floorExpm1(double x) {
            double guess = Math.exp(x) - 1.0;
            double floor = Math.floor(guess);
            double margin = 64 * Math.ulp(guess + 1.0);
            if (guess - floor > margin && floor + 1.0 - guess > margin) {
                return (long) floor;
            }
            return (long) Math.expm1(x);
        }
    }

    /** Component count distributions. */
    enum Distribution {
        FIXED, UNIFORM, LOG_UNIFORM;

        public String id() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        public static Distribution parse(String id) {
            for (Distribution d : values()) {
                if (d.id().equals(id)) {
                    return d;
                }
            }
            throw new IllegalArgumentException("unknown distribution '" + id + "' (known: fixed, uniform, log-uniform)");
        }
    }
}
