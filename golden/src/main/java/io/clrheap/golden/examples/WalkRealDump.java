package io.clrheap.golden.examples;

import io.clrheap.walker.Dumps;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.report.DumpHeapStat;
import io.clrheap.walker.report.TypeNames;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.walk.ObjectVisitor;
import io.clrheap.walker.heap.Problem;
import io.clrheap.walker.heap.Region;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Example 3: walk the heap of a real .NET process's core dump, without the DAC, and print its biggest types.
 * Run it: {@code ./clrheap example WalkRealDump [CORE [NAMES]]} (default: golden/real/net8-svr, a .NET 8.0.30 server-GC
 * process, with the runtime's own list of live objects for the type names).
 */
public final class WalkRealDump {

    private WalkRealDump() {
    }

    public static void main(String[] args) throws Exception {
        PrintWriter out = new PrintWriter(System.out, true);
        // the launcher says where the project is (clrheap.home): the real dumps are in its golden/real folder
        Path core = args.length > 0 ? Path.of(args[0]) : Path.of(System.getProperty("clrheap.home", "."), "golden", "real", "net8-svr", "core.xz");
        Path names = args.length > 1 ? Path.of(args[1]) : core.resolveSibling("live-objects.txt");
        System.exit(run(out, core, names, 5) ? 0 : 1);
    }

    /** Prints the {@code top} types by size and the totals; true when the walk met no problem. */
    public static boolean run(PrintWriter out, Path core, Path names, int top) throws Exception {
        // any format (ELF core, minidump, bundle); an .xz core is decompressed once, into the cache folder (cores/ in $CLRHEAP_CACHE, else ~/.cache/clrheap), then memory-mapped
        try (DumpSession dump = Dumps.open(core)) {
            Target target = dump.target();
            DiscoveredHeap heap = dump.heap();
            out.printf("%s: %s, %d heap%s, %d regions%n", core, target.describe(), heap.heaps().size(),
                    heap.heaps().size() == 1 ? "" : "s", heap.regionsByAddress().size());

            DumpHeapStat stat = new DumpHeapStat();
            int[] problems = {heap.problems().size()};
            dump.walk(new ObjectVisitor() {
                @Override
                public void object(long address, long mt, long size, Region region) {
                    stat.object(address, mt, size, region);
                }

                @Override
                public void problem(Problem p) {
                    problems[0]++;
                }
            });

            // dumpheap -stat lists types by total size, smallest first: the last rows are the biggest
            // names from the metadata in the dump; live-objects.txt beside it for modules whose images were trimmed
            TypeNames typeNames = Files.isRegularFile(names) ? dump.typeNames().orElse(TypeNames.load(names)) : dump.typeNames();
            StringWriter text = new StringWriter();
            stat.print(new PrintWriter(text), typeNames, heap.freeMethodTable());
            List<String> lines = text.toString().lines().toList();
            out.println(lines.get(0));
            lines.subList(Math.max(1, lines.size() - 1 - top), lines.size()).forEach(out::println);
            out.printf("%d problem%s%n", problems[0], problems[0] == 1 ? "" : "s");
            return problems[0] == 0;
        }
    }
}
