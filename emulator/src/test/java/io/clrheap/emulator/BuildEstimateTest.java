package io.clrheap.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.scenario.Step;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class BuildEstimateTest {

    /** The default scenario's mixed population a hundred times over: 700,000 objects, some 100 MiB. */
    static Scenario medium() {
        return Scenario.defaultScenario(RuntimeVersion.NET8, GcFlavor.SERVER).toBuilder().name("medium")
                .objects(300_000, 150_000, 250_000, 600, 1200).frozenStrings(4000).build();
    }

    static Stream<Arguments> scenarios() {
        Stream<Scenario> builtIn = Stream.of("default", "every-edge", "sixty-four-heaps", "collected", "many-regions", "huge-loh", "frozen-segments",
                "user-types", "naive-plain", "trap-unaligned-size").map(n -> Scenarios.named(n).orElseThrow());
        return Stream.concat(builtIn, Stream.of(medium()))
                .flatMap(s -> Stream.of(GcFlavor.values()).map(gc -> Arguments.of(s.name(), s.on(RuntimeVersion.NET8, gc))));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("scenarios")
    void theMemoryEstimateBoundsWhatTheBuildWritesWithinTwice(String name, Scenario scenario) {
        BuildEstimate estimate = BuildEstimate.of(scenario);
        EmulatedRuntime built = new RuntimeBuilder().build(scenario);
        long actual = built.memory().allocatedBytes();
        assertThat(estimate.memoryBytes()).as("%s: estimate %s, written %,d bytes", scenario.gc(), estimate, actual)
                .isGreaterThanOrEqualTo(actual).isLessThanOrEqualTo(2 * actual);
        assertThat(estimate.objects()).as("objects").isGreaterThanOrEqualTo(built.groundTruth().objectCount());
        assertThat(estimate.elfBytes()).isGreaterThan(estimate.memoryBytes());
        assertThat(estimate.minidumpBytes()).isGreaterThan(estimate.memoryBytes());
        assertThat(estimate.bundleBytes()).isGreaterThan(estimate.memoryBytes() + estimate.answerKeyBytes());
    }

    @Test
    void aProgramOfLargeArraysIsBoundedByItsHeaders() {
        // 2,000 int[] of up to 400,000 bytes: written, each costs its header's chunk, not its size
        Scenario s = Scenario.builder("arrays").objects(100, 100, 100, 0, 0)
                .allocate(new Step.Allocate("System.Int32[]", 2000, Step.Lengths.uniform(0, 100_000), Step.Where.GEN2, -1, 0.5)).collect(2)
                .allocate(new Step.Allocate("System.String", 20_000, Step.Lengths.logUniform(0, 20_000), Step.Where.GEN0, -1, 0.5)).build();
        BuildEstimate estimate = BuildEstimate.of(s);
        long actual = new RuntimeBuilder().build(s).memory().allocatedBytes();
        assertThat(estimate.memoryBytes()).as("estimate %s, written %,d bytes", estimate, actual).isBetween(actual, 2 * actual);
    }

    @Test
    void aBillionObjectsAreEstimatedAtOnce() {
        Scenario s = Scenario.builder("billion").objects(1_000_000_000L, 0, 0, 0, 0).build();
        long started = System.nanoTime();
        BuildEstimate estimate = BuildEstimate.of(s);
        assertThat(System.nanoTime() - started).isLessThan(1_000_000_000L);
        // some 80 bytes an object
        assertThat(estimate.memoryBytes()).isGreaterThan(60_000_000_000L).isLessThan(120_000_000_000L);
        assertThat(estimate.objects()).isGreaterThanOrEqualTo(1_000_000_000L);
        assertThat(estimate.groundTruthBytes()).isGreaterThan(2_000_000_000L);
        assertThat(estimate.toString()).contains("GiB of process memory").contains("GiB of Java heap").contains("answer key");
    }

    @Test
    void bytesReadAsPeopleReadThem() {
        assertThat(BuildEstimate.bytes(512)).isEqualTo("512 B");
        assertThat(BuildEstimate.bytes(1536)).isEqualTo("1.5 KiB");
        assertThat(BuildEstimate.bytes(100L << 30)).isEqualTo("100.0 GiB");
    }
}
