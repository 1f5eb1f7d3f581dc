package io.clrheap.emulator.truth;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.InvariantChecker;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.scenario.Step;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import org.junit.jupiter.api.Test;

/** The ground truth's own keeping of what a build placed. */
class GroundTruthTest {

    @Test
    void theGroundTruthKeepsTwentyThousandObjectsInFarLessThanAJavaObjectEach() {
        Scenario scenario = Scenario.builder("compact").runtime(RuntimeVersion.NET8).gc(GcFlavor.WORKSTATION).heaps(1).threads(1)
                .allocate(new Step.Allocate("System.Int32[]", 20_000, Step.Lengths.uniform(0, 100), Step.Where.GEN2, -1, 0)).build();
        EmulatedRuntime runtime = new RuntimeBuilder().build(scenario);
        assertThat(InvariantChecker.check(runtime)).isEmpty();
        assertThat(runtime.groundTruth().objectCount()).isEqualTo(20_000);
        long[] bytes = {0};
        runtime.groundTruth().runsByAddress().forEach(r -> bytes[0] += r.data.length);
        assertThat(bytes[0]).isLessThan(20_000 * 4L); // under 4 bytes an object (a long[] of addresses alone would be 8)
    }
}
