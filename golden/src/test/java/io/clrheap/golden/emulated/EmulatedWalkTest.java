package io.clrheap.golden.emulated;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.GroundTruth;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.Scenario;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.walker.discovery.DiscoveredHeap;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.discovery.Region;
import io.clrheap.walker.source.elf.MappedFile;
import io.clrheap.walker.target.Target;
import io.clrheap.walker.target.TargetOpener;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.walk.ObjectVisitor;
import io.clrheap.walker.walk.Problem;
import io.clrheap.walker.walk.WalkLimits;
import io.clrheap.walker.walk.WalkRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The walker, proven on real dumps, walks emulated processes through the same discovery path and finds exactly
 * what the emulator placed.
 */
class EmulatedWalkTest {

    static Stream<Arguments> runtimes() {
        return Stream.of(RuntimeVersion.values()).flatMap(v -> Stream.of(GcFlavor.values()).map(gc -> Arguments.of(v, gc)));
    }

    private static Target open(EmulatedRuntime runtime) throws Exception {
        List<MappedFile> files = runtime.mappings().stream()
                .map(m -> new MappedFile(m.start(), m.end(), m.fileOffset(), m.path())).toList();
        return new TargetOpener(ProfileLoader.builtIn()).open(runtime.memory(), files, Optional.empty());
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("runtimes")
    void theWalkFindsExactlyTheGroundTruth(RuntimeVersion version, GcFlavor gc) throws Exception {
        EmulatedRuntime runtime = new RuntimeBuilder().build(Scenario.defaultScenario(version, gc));
        Target target = open(runtime);
        assertThat(target.gc()).isEqualTo(gc);
        assertThat(target.version()).startsWith(version.shortName().substring(3) + ".");
        DiscoveredHeap heap = new HeapDiscovery(target).discover();
        assertThat(heap.problems()).extracting(Problem::describe).isEmpty();
        assertThat(heap.heaps()).hasSize(runtime.scenario().heaps());
        List<String> walked = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        new HeapWalker(target.memory(), WalkRules.of(target.layout()), heap, WalkLimits.DEFAULT).walk(new ObjectVisitor() {
            @Override
            public void object(long address, long mt, long size, Region region) {
                walked.add(String.format("0x%x 0x%x %d", address, mt, size));
            }

            @Override
            public void problem(Problem p) {
                problems.add(p.describe());
            }
        });
        assertThat(problems).isEmpty();
        GroundTruth truth = runtime.groundTruth();
        List<String> expected = new ArrayList<>();
        for (int i : truth.byAddress()) {
            expected.add(String.format("0x%x 0x%x %d", truth.address(i), truth.methodTable(i), truth.size(i)));
        }
        assertThat(walked).containsExactlyElementsOf(expected);
    }
}
