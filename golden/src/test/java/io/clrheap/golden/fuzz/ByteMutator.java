package io.clrheap.golden.fuzz;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Mutations of a file's bytes, half of them aimed at the fields a reader trusts (given as {@link Field}s found by a
 * target's own light parse of the parent): bit flips, bytes set to interesting values, fields and words set to
 * boundary values (0, -1, the type's maximum, small offsets, the file size and its neighbours, another field's
 * value), truncation, and chunks duplicated or deleted.
 */
final class ByteMutator {

    /** A little-endian field of {@code width} bytes (1, 2, 4 or 8) at {@code offset}. */
    record Field(long offset, int width) {
    }

    private static final int[] INTERESTING_BYTES = {0, 0xff, 0x7f, 0x80, 1, 0xfe};

    private ByteMutator() {
    }

    /** One to four stacked mutations of {@code parent} (which is not changed). */
    static byte[] mutate(byte[] parent, List<Field> fields, SplittableRandom random) {
        byte[] child = parent.clone();
        int n = 1 + random.nextInt(4);
        for (int i = 0; i < n && child.length > 0; i++) {
            child = mutateOnce(child, fields, random);
        }
        return child;
    }

    private static byte[] mutateOnce(byte[] b, List<Field> fields, SplittableRandom random) {
        List<Field> inFile = fields.stream().filter(f -> f.offset() >= 0 && f.offset() + f.width() <= b.length).toList();
        // where the structures end: the generic mutations aim there more often than at bulk memory contents
        long structureEnd = inFile.stream().mapToLong(f -> f.offset() + f.width()).max().orElse(Math.min(b.length, 4096));
        int op = random.nextInt(10);
        if (op < 4 && !inFile.isEmpty()) {
            Field f = inFile.get(random.nextInt(inFile.size()));
            Field other = inFile.get(random.nextInt(inFile.size()));
            put(b, f, boundary(random, b.length, f.width(), get(b, f), get(b, other)));
            return b;
        }
        int at = offset(b.length, structureEnd, random);
        switch (op) {
            case 4 -> b[at] ^= (byte) (1 << random.nextInt(8));
            case 5 -> b[at] = (byte) INTERESTING_BYTES[random.nextInt(INTERESTING_BYTES.length)];
            case 6 -> {
                int width = random.nextBoolean() ? 4 : 8;
                int aligned = at & ~(width - 1);
                if (aligned + width <= b.length) {
                    Field f = new Field(aligned, width);
                    put(b, f, boundary(random, b.length, width, get(b, f), 0));
                }
            }
            case 7 -> {
                return Arrays.copyOf(b, random.nextBoolean() ? at : (int) (b.length - 1 - random.nextInt(Math.min(b.length, 64))));
            }
            case 8 -> {
                int length = 1 + random.nextInt(Math.min(4096, b.length - at));
                int to = offset(b.length, structureEnd, random);
                byte[] out = new byte[b.length + length];
                System.arraycopy(b, 0, out, 0, to);
                System.arraycopy(b, at, out, to, length);
                System.arraycopy(b, to, out, to + length, b.length - to);
                return out;
            }
            default -> {
                int length = 1 + random.nextInt(Math.min(4096, b.length - at));
                byte[] out = new byte[b.length - length];
                System.arraycopy(b, 0, out, 0, at);
                System.arraycopy(b, at + length, out, at, b.length - at - length);
                return out;
            }
        }
        return b;
    }

    /** Mostly inside the structures, sometimes anywhere. */
    private static int offset(int length, long structureEnd, SplittableRandom random) {
        long bound = random.nextInt(4) == 0 ? length : Math.max(1, Math.min(length, structureEnd));
        return (int) random.nextLong(bound);
    }

    /** A value that tends to break a reader's arithmetic on a field of {@code width} bytes that now holds {@code current}. */
    static long boundary(SplittableRandom random, long fileSize, int width, long current, long otherField) {
        long max = width == 8 ? Long.MAX_VALUE : (1L << (8 * width - 1)) - 1;
        return switch (random.nextInt(14)) {
            case 0 -> 0;
            case 1 -> -1;
            case 2 -> max;
            case 3 -> max + 1;
            case 4 -> 1 + random.nextInt(64);
            case 5 -> fileSize;
            case 6 -> fileSize - 1;
            case 7 -> fileSize + 1;
            case 8 -> current + 1;
            case 9 -> current - 1;
            case 10 -> current * 2;
            case 11 -> current ^ (1L << random.nextInt(8 * width));
            case 12 -> otherField;
            default -> (long) Integer.MAX_VALUE;
        };
    }

    static long get(byte[] b, Field f) {
        long v = 0;
        for (int i = f.width() - 1; i >= 0; i--) {
            v = (v << 8) | (b[(int) f.offset() + i] & 0xff);
        }
        return v;
    }

    static void put(byte[] b, Field f, long value) {
        for (int i = 0; i < f.width(); i++) {
            b[(int) f.offset() + i] = (byte) (value >>> (8 * i));
        }
    }

    /** A little-endian unsigned read that answers -1 past the end, for the targets' defensive parses. */
    static long read(byte[] b, long offset, int width) {
        if (offset < 0 || offset + width > b.length) {
            return -1;
        }
        return get(b, new Field(offset, width));
    }
}
