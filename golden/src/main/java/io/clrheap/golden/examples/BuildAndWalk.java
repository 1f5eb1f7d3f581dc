package io.clrheap.golden.examples;

import io.clrheap.walker.OpenOptions;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.DumpSession;
import io.clrheap.emulator.EmulatedRuntime;
import io.clrheap.emulator.RuntimeBuilder;
import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.scenario.Step;
import io.clrheap.emulator.scenario.TypeDef;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.report.DumpHeapStat;
import io.clrheap.walker.source.elf.MappedFile;
import java.io.PrintWriter;
import java.util.List;

/**
 * Example 1: build a .NET heap with the emulator and walk it with the walker.
 * Run it: {@code ./clrheap example BuildAndWalk}.
 */
public final class BuildAndWalk {

    private BuildAndWalk() {
    }

    public static void main(String[] args) throws Exception {
        PrintWriter out = new PrintWriter(System.out, true);
        System.exit(run(out) ? 0 : 1);
    }

    /** Prints the walk's dumpheap -stat and whether it found what was built; true when it did. */
    public static boolean run(PrintWriter out) throws Exception {
        // A .NET 9 server-GC process with 2 heaps, a type of our own, and 10,000 of its instances allocated by threads.
        Scenario scenario = Scenario.builder("build-and-walk")
                .runtime(RuntimeVersion.NET9).gc(GcFlavor.SERVER).heaps(2).threads(2)
                .objects(500, 200, 300, 2, 2).frozenStrings(5).garbage(0.1)
                .type(TypeDef.ofClass("Shop.Order", 40, 2))
                .allocate("Shop.Order", 10_000, Step.Lengths.fixed(0), Step.Where.GEN0)
                .build();
        EmulatedRuntime process = new RuntimeBuilder().build(scenario);

        // The walker sees what a dump holds: memory and the runtime module's file mappings. It finds the runtime module,
        // g_dacTable, GcDacVars, the heaps and their regions by itself.
        List<MappedFile> files = process.mappings().stream().map(m -> new MappedFile(m.start(), m.end(), m.fileOffset(), m.path())).toList();
        // Dumps carry no type names (they live in metadata); the emulator knows them.
        DumpSession dump = Dumps.of(process.memory(), files, "emulated process", scenario.name(), process.typeNames(), OpenOptions.DEFAULT);
        DiscoveredHeap heap = dump.heap();
        DumpHeapStat stat = new DumpHeapStat();
        dump.walk(stat);
        stat.print(out, dump.typeNames(), heap.freeMethodTable());
        long built = process.groundTruth().objectCount();
        out.printf("%nbuilt %,d objects; the walker found %,d in %d regions of %d heaps%n", built, stat.objects(),
                heap.regionsByAddress().size(), heap.heaps().size());
        return stat.objects() == built && stat.bytes() == process.groundTruth().totalBytes();
    }
}
