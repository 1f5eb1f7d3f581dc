package io.clrheap.emulator.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The lengths an allocation step draws: their distributions and the log-uniform draw's shortcut. */
class StepLengthsTest {

    @Test
    void lengthsFollowTheirDistribution() {
        java.util.Random random = new java.util.Random(1);
        Step.Lengths logUniform = Step.Lengths.logUniform(0, 100_000);
        long small = 0;
        for (int i = 0; i < 10_000; i++) {
            long n = logUniform.draw(random);
            assertThat(n).isBetween(0L, 100_000L);
            if (n < 1000) {
                small++;
            }
        }
        assertThat(small).isGreaterThan(5000); // many short, few long
        assertThat(Step.Lengths.fixed(7).draw(random)).isEqualTo(7);
        assertThatThrownBy(() -> Step.Lengths.uniform(5, 4)).hasMessageContaining("min <= max");
    }

    /** The log-uniform draw's shortcut truncates exactly as (long) Math.expm1 does, near integers and 0 included. */
    @Test
    void floorExpm1IsTruncatedExpm1() {
        java.util.Random random = new java.util.Random(3);
        for (long max : new long[] {1, 2, 64, 1024, 100_000, Integer.MAX_VALUE}) {
            double span = Math.log1p(max);
            for (int i = 0; i < 200_000; i++) {
                double x = random.nextDouble() * span;
                assertThat(Step.Lengths.floorExpm1(x)).as("x = %s", x).isEqualTo((long) Math.expm1(x));
            }
        }
        for (long n = 0; n <= 5000; n++) {
            // around each integer: the double nearest log1p(n) and its neighbours
            double x = Math.log1p(n);
            for (double y : new double[] {Math.nextDown(Math.nextDown(x)), Math.nextDown(x), x, Math.nextUp(x), Math.nextUp(Math.nextUp(x))}) {
                if (y >= 0) {
                    assertThat(Step.Lengths.floorExpm1(y)).as("x = %s", y).isEqualTo((long) Math.expm1(y));
                }
            }
        }
        assertThat(Step.Lengths.floorExpm1(0)).isZero();
    }
}
