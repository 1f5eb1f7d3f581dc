package io.clrheap.golden.conformance;

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

/** docs/conformance.md's "Check your walker" example, run: the project's own walker through the JUnit conformance API. */
class OwnWalkerConformanceTest extends WalkerConformanceTest {

    @Override
    protected List<WalkedObject> walk(Path dump) throws Exception {
        try (ElfCore core = ElfCore.open(dump)) {
            Target target = new TargetOpener(ProfileLoader.builtIn()).open(core, core.mappedFiles(), Optional.empty());
            DiscoveredHeap heap = new HeapDiscovery(target).discover();
            List<WalkedObject> objects = new ArrayList<>();
            new HeapWalker(target.memory(), WalkRules.of(target.layout()), heap, WalkLimits.DEFAULT)
                    .walk((address, mt, size, region) -> objects.add(new WalkedObject(address, mt, size)));
            return objects;
        }
    }
}
