package io.clrheap.golden.emulated;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.Scenarios;
import io.clrheap.generator.elf.ElfCoreWriter;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.source.elf.ElfCore;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetOpener;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.heap.WalkLimits;
import io.clrheap.walker.walk.WalkRules;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A walk that gives back each region's pages of a mapped core once walked ({@code walk --stat} does, to keep its
 * resident size flat) finds exactly the objects placed, and so does a second walk that reads those pages back.
 */
class ReleasedMemoryWalkTest {

    @Test
    void walkingAgainAfterTheWalkedPagesWereGivenBackFindsTheSameObjects(@TempDir Path dir) throws Exception {
        EmulatedRuntime runtime = new RuntimeBuilder().build(Scenarios.named("every-edge").orElseThrow().on(RuntimeVersion.NET9, GcFlavor.SERVER));
        Path file = dir.resolve("every-edge.core");
        ElfCoreWriter.write(runtime, file);
        List<String> placed = ObjectLines.placed(runtime);
        try (ElfCore core = ElfCore.open(file)) {
            Target target = new TargetOpener(ProfileLoader.builtIn()).open(core, core.mappedFiles(), Optional.empty());
            DiscoveredHeap heap = new HeapDiscovery(target).discover();
            for (int walk = 1; walk <= 2; walk++) {
                List<String> problems = new ArrayList<>();
                HeapWalker walker = new HeapWalker(target.memory(), WalkRules.of(target.layout()), heap, WalkLimits.DEFAULT).releaseWalkedMemory(true);
                List<String> found = ObjectLines.walked(walker, heap, problems);
                assertThat(problems).as("walk %d", walk).isEmpty();
                assertThat(found).as("walk %d", walk).containsExactlyElementsOf(placed);
            }
        }
    }
}
