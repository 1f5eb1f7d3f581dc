package io.clrheap.generator.bundle;

import io.clrheap.generator.ObjectLists;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.Scenarios;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.source.bundle.Bundle;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetOpener;
import io.clrheap.walker.heap.Problem;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every built-in scenario, written as a bundle and opened by the walker's bundle reader, is found and walked through
 * the dump discovery path (runtime module → g_dacTable → GcDacVars → heaps → regions) to exactly the objects the
 * emulator placed, with its type names.
 */
class BundleRoundTripTest {

    private static final ProfileLoader PROFILES = ProfileLoader.builtIn();

    @TempDir
    Path dir;

    /** A few scenarios on every runtime: the CLI's answer-key test walks every scenario's bundle. */
    static Stream<Arguments> scenarios() {
        return Stream.of("default", "every-edge", "collected", "frozen-segments").flatMap(s -> Stream.of(RuntimeVersion.values())
                .flatMap(v -> Stream.of(GcFlavor.values()).map(gc -> Arguments.of(s, v, gc))));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("scenarios")
    void aBundleWalksToExactlyItsGroundTruth(String name, RuntimeVersion version, GcFlavor gc)
            throws Exception {
        Scenario scenario = Scenarios.named(name).orElseThrow().on(version, gc);
        EmulatedRuntime process = new RuntimeBuilder().build(scenario);
        Path answers = Files.createDirectories(dir.resolve("answer"));
        Files.writeString(answers.resolve("scenario.txt"), scenario.name() + "\n");
        Path file = dir.resolve(name + BundleWriter.SUFFIX);
        BundleWriter.write(process, BundleInfo.of(process, "0.0.0-test"), answers, file);

        try (Bundle bundle = Bundle.open(file)) {
            assertThat(bundle.ranges()).isEqualTo(process.memory().touchedRanges());
            assertThat(bundle.typeNames()).isEqualTo(process.typeNames());
            assertThat(bundle.manifest().scenario()).isEqualTo(name);
            assertThat(bundle.manifest().runtime()).isEqualTo(version.shortName());
            assertThat(bundle.manifest().gc()).isEqualTo(gc.id());
            assertThat(bundle.answerNames()).containsExactly("scenario.txt");
            try (InputStream in = bundle.openAnswer("scenario.txt")) {
                assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(name + "\n");
            }

            Target target = new TargetOpener(PROFILES).open(bundle, bundle.mappedFiles(), Optional.empty());
            assertThat(target.gc()).isEqualTo(gc);
            assertThat(target.version()).isEqualTo(process.layout().primaryBuild().version());
            DiscoveredHeap heap = new HeapDiscovery(target).discover();
            assertThat(heap.problems()).extracting(Problem::describe).isEmpty();
            assertThat(heap.heaps()).hasSize(scenario.heaps());

            assertThat(ObjectLists.walked(target, heap)).isNotEmpty().containsExactlyElementsOf(ObjectLists.placed(process.groundTruth()));
        }
    }

    static void writeAnswer(Path dir, String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }
}
