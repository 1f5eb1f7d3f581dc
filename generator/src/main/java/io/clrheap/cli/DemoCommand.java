package io.clrheap.cli;

import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.GroundTruth;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.Scenario;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.walker.discovery.DiscoveredHeap;
import io.clrheap.walker.discovery.HeapDiscovery;
import io.clrheap.walker.report.DumpHeapStat;
import io.clrheap.walker.report.TypeNames;
import io.clrheap.walker.source.elf.MappedFile;
import io.clrheap.walker.target.Target;
import io.clrheap.walker.target.TargetOpener;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.walk.WalkLimits;
import io.clrheap.walker.walk.WalkRules;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code clrheap demo}: the main job on the built-in default scenario — emulate a .NET process, find its GC heap the
 * way a DAC-less walker finds it in a dump, walk it, and check the walk against what the emulator placed.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = {"Emulate a .NET process (the built-in default scenario; .NET 8, server GC unless told otherwise),",
            "find its GC heap as a walker finds it in a dump, walk it, and check the walk against the ground truth."})
final class DemoCommand implements Callable<Integer> {

    @Mixin
    RuntimeOptions runtime = new RuntimeOptions();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Scenario scenario = Scenario.defaultScenario(runtime.runtime, runtime.gc);
        EmulatedRuntime emulated = new RuntimeBuilder().build(scenario);
        GroundTruth truth = emulated.groundTruth();
        out.printf("1. Emulated a %s process — scenario '%s': %s.%n", emulated.layout().describe(), scenario.name(), scenario.description());
        out.printf("   %,d objects placed in %d regions; %,d KiB of memory written.%n%n", truth.objectCount(), truth.regions().size(),
                emulated.memory().allocatedBytes() >> 10);

        List<MappedFile> files = emulated.mappings().stream().map(m -> new MappedFile(m.start(), m.end(), m.fileOffset(), m.path())).toList();
        Target target = new TargetOpener(ProfileLoader.builtIn()).open(emulated.memory(), files, Optional.empty());
        var dac = target.build().dacTable();
        out.println("2. Found its GC heap the way a DAC-less walker does in a dump:");
        out.printf("   runtime module %s at 0x%x exports g_dacTable (%d entries) -> build %s (by %s)%n", target.module().fileName(),
                target.module().base(), target.module().dacTableLength(), target.version(), target.versionSource());
        out.printf("   g_dacTable[%d] g_gcDacGlobals -> GcDacVars -> %s -> generation tables -> region lists%n",
                dac.indexOf("g_gcDacGlobals").orElse(-1),
                target.gc() == io.clrheap.layout.GcFlavor.SERVER ? "n_heaps, g_heaps, gc_heap_field_offsets" : "the static gc_heap members");
        DiscoveredHeap heap = new HeapDiscovery(target).discover();
        out.printf("   %d heap%s, %d regions, %d allocation contexts in use (skipped by the walk: [alloc_ptr, alloc_limit + %d))%n%n",
                heap.heaps().size(), heap.heaps().size() == 1 ? "" : "s", heap.regionsByAddress().size(),
                heap.contexts().stream().filter(c -> c.inUse()).count(), target.layout().constant("alloc_context.tail_reserve"));

        out.println("3. Walked it (dumpheap -stat):");
        HeapWalker walker = new HeapWalker(target.memory(), WalkRules.of(target.layout()), heap, WalkLimits.DEFAULT);
        DumpHeapStat stat = new DumpHeapStat();
        long[] problems = {heap.problems().size()};
        walker.walkRegions(StatWithProblems::new, part -> {
            stat.merge(part.stat);
            problems[0] += part.problems;
        }, Runtime.getRuntime().availableProcessors());
        stat.print(out, TypeNames.of(emulated.typeNames()), heap.freeMethodTable());
        out.println();

        long expectedBytes = truth.totalBytes();
        boolean sameTypes = truth.statistics().entrySet().stream().allMatch(e -> stat.count(e.getKey()) == e.getValue()[0]);
        boolean same = stat.objects() == truth.objectCount() && stat.bytes() == expectedBytes && sameTypes && problems[0] == 0;
        out.printf("4. %s: the walker found %,d objects (%,d bytes); the emulator placed %,d (%,d bytes)%s.%n",
                same ? "Checked" : "MISMATCH", stat.objects(), stat.bytes(), truth.objectCount(), expectedBytes,
                problems[0] == 0 ? "" : "; " + problems[0] + " problems");
        out.println();
        out.println("Next: ./clrheap walk golden/real/net8-svr/core.xz --stat   (a real .NET 8 dump)");
        out.println("      ./clrheap layout --help                              (every structure, with sources)");
        return same ? 0 : 1;
    }
}
