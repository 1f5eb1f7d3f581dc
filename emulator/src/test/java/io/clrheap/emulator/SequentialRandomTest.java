package io.clrheap.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class SequentialRandomTest {

    /** Every kind of draw a build makes, interleaved: the same numbers as java.util.Random from the same seed. */
    @Test
    void drawsWhatJavaUtilRandomDraws() {
        for (long seed : new long[] {0, 1, 42, 20_000_000L, -7, Long.MAX_VALUE, Long.MIN_VALUE}) {
            Random expected = new Random(seed);
            Random actual = new SequentialRandom(seed);
            for (int i = 0; i < 20_000; i++) {
                switch (i % 9) {
                    case 0 -> assertThat(actual.nextInt()).isEqualTo(expected.nextInt());
                    case 1 -> assertThat(actual.nextInt(1 + i)).isEqualTo(expected.nextInt(1 + i));
                    case 2 -> assertThat(actual.nextLong()).isEqualTo(expected.nextLong());
                    case 3 -> assertThat(actual.nextLong(3L * i + 1)).isEqualTo(expected.nextLong(3L * i + 1));
                    case 4 -> assertThat(actual.nextDouble()).isEqualTo(expected.nextDouble());
                    case 5 -> assertThat(actual.nextBoolean()).isEqualTo(expected.nextBoolean());
                    case 6 -> assertThat(actual.nextGaussian()).isEqualTo(expected.nextGaussian());
                    case 7 -> assertThat(actual.nextLong((1L << 40) + i)).isEqualTo(expected.nextLong((1L << 40) + i));
                    default -> assertThat(actual.nextFloat()).isEqualTo(expected.nextFloat());
                }
            }
        }
    }

    @Test
    void setSeedRestartsTheSequence() {
        Random expected = new Random(5);
        Random actual = new SequentialRandom(9);
        actual.nextLong();
        actual.setSeed(5);
        expected.nextInt();
        expected.setSeed(5);
        for (int i = 0; i < 100; i++) {
            assertThat(actual.nextLong()).isEqualTo(expected.nextLong());
        }
    }
}
