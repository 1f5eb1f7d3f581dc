package io.clrheap.cli.map;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.map.HeapMap;
import io.clrheap.walker.map.MapLimits;
import io.clrheap.walker.report.TypeNames;
import io.clrheap.walker.source.bundle.Bundle;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetOpener;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.heap.WalkLimits;
import io.clrheap.walker.walk.WalkRules;
import java.nio.file.Path;
import java.util.Optional;

/** A scenario written by {@code clrheap generate} as a bundle with its answer key, and maps built from it. */
final class MapFixture {

    final Path bundle;
    final Path answer;

    private MapFixture(Path bundle, Path answer) {
        this.bundle = bundle;
        this.answer = answer;
    }

    /** Generates {@code scenario} (a built-in name) into {@code dir}. */
    static MapFixture generate(String scenario, Path dir) {
        ClrheapCommand.Outcome r = ClrheapCommand.run("generate", "--scenario", scenario, "--format", "bundle", "--out", dir.toString(), "-q");
        assertThat(r.exitCode()).as(r.err()).isZero();
        String name = scenario + "-net8-server"; // the built-in scenarios are .NET 8 server GC fixtures unless told otherwise
        return new MapFixture(dir.resolve(name + ".clrheap.tar.xz"), dir.resolve(name + ".answer"));
    }

    HeapMap map(MapLimits limits) throws Exception {
        return map(limits, null, 4);
    }

    /** The map of the bundle's heap, with its own type names or those given. */
    HeapMap map(MapLimits limits, TypeNames names, int parallelism) throws Exception {
        try (Bundle b = Bundle.open(bundle)) {
            Target target = new TargetOpener(ProfileLoader.builtIn()).open(b, b.mappedFiles(), Optional.empty());
            DiscoveredHeap heap = new HeapDiscovery(target).discover();
            WalkRules rules = WalkRules.of(target.layout());
            HeapWalker walker = new HeapWalker(target.memory(), rules, heap, WalkLimits.DEFAULT);
            return HeapMap.build(walker, heap, rules, names != null ? names : TypeNames.of(b.typeNames()), limits, parallelism);
        }
    }

    /** The bundle's type names, for a test to change. */
    java.util.Map<Long, String> typeNames() throws Exception {
        try (Bundle b = Bundle.open(bundle)) {
            return b.typeNames();
        }
    }
}
