package io.clrheap.cli;

import io.clrheap.cli.map.MapHtmlWriter;
import io.clrheap.cli.map.MapPage;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.map.HeapMap;
import io.clrheap.walker.map.MapLimits;
import io.clrheap.walker.report.TypeNames;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.OpenOptions;
import io.clrheap.walker.walk.HeapWalker;
import io.clrheap.walker.walk.WalkRules;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code clrheap map DUMP --html OUT.html}: draws the GC heap of a dump as one self-contained HTML page. */
@Command(
        name = "map",
        mixinStandardHelpOptions = true,
        description = {"Draw the GC heap of a .NET 8/9/10 process dump as one self-contained HTML page (no network, no external "
                    + "files).",
            "The page shows the address space as a strip (every region at its address, coloured by generation), a "
                    + "summary per generation, then heaps -> generations -> regions as bars to scale (width = committed bytes, "
                    + "the scale stated on the page; regions of a generation side by side), objects coloured by type with a "
                    + "legend, free objects grey, allocation contexts hatched and frozen segments marked. Click a region to "
                    + "zoom in (or open PAGE#region=0x<mem>);",
            "hover shows address, type and size. Zoomed out, a region is drawn by buckets (up to 1,024, coloured by "
                    + "the type with the most bytes); zoomed in, object by object for regions of at most 50,000 objects while "
                    + "the page's budget (--max-objects) lasts, by bucket otherwise — the page says which.",
            "The dump is a Linux x64 ELF core (.xz accepted), a Windows x64 minidump, or a clrheap fixture bundle;",
            "with --emulate, an emulated process built in memory from a scenario."},
        footer = {
            "",
            "Examples:",
            "  ./clrheap map fixtures/every-edge-net8-server.clrheap.tar.xz --html every-edge.html",
            "  ./clrheap map golden/real/net8-svr/core.xz --names golden/real/net8-svr/live-objects.txt --html net8-svr.html",
            "  ./clrheap map --emulate default --runtime net10 --gc workstation --html default.html",
            "  ./clrheap map big.core --html big.html --max-objects 200000",
            "",
            "Exit codes: 0 success; 1 a failure (e.g. the page cannot be written); 2 bad usage;",
            "3 the dump cannot be opened as a .NET process (not a core, unknown build, module headers missing)."
        })
final class MapCommand implements Callable<Integer> {

    @Mixin
    HeapSource source = new HeapSource();

    @Option(names = "--html", required = true, paramLabel = "OUT.html", description = "The page to write (replaced atomically if it exists).")
    Path html;

    @Option(names = "--names", paramLabel = "FILE", description = "Type names: lines of 'mt type' or 'address size mt type' (live-objects.txt).")
    Path names;

    @Option(names = "--module", paramLabel = "FILE", description = "The runtime binary, for dumps that lack its ELF headers.")
    Path module;

    @Option(names = "--max-objects", paramLabel = "N", description = "Objects the page keeps one by one, in all (default: ${DEFAULT-VALUE}); regions past it are drawn by bucket.")
    long maxObjects = MapLimits.DEFAULT.maxObjects();

    @Option(names = "--parallel", paramLabel = "N", description = "Threads walking regions (default: the number of processors).")
    int parallel = Runtime.getRuntime().availableProcessors();

    @Option(names = {"-q", "--quiet"}, description = "No notes or progress on stderr.")
    boolean quiet;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        CommandLine cli = spec.commandLine();
        source.checkChoice(cli, false, false);
        if (maxObjects < 0) {
            throw new CommandLine.ParameterException(cli, "--max-objects must be 0 or more");
        }
        if (parallel < 1) {
            throw new CommandLine.ParameterException(cli, "--parallel must be at least 1");
        }
        if (Files.isDirectory(html)) {
            throw new CommandLine.ParameterException(cli, "--html " + html + " is a directory; give the page's file name, e.g. " + html.resolve("map.html"));
        }
        if (names != null && !Files.isRegularFile(names)) {
            throw new CommandLine.ParameterException(cli, "--names " + names + ": no such file");
        }
        if (module != null && !Files.isRegularFile(module)) {
            throw new CommandLine.ParameterException(cli, "--module " + module + ": no such file");
        }
        if (source.emulated()) {
            return mapEmulated(out, err);
        }
        source.checkDump(cli);
        Path dump = source.dump;
        OpenOptions options = OpenOptions.DEFAULT.withModule(module).withCoreCache(source.coreCache()).withNotes(note -> note(err, note));
        return DumpOpener.open("map", dump, options, err, session -> {
            // names from the dump's metadata; --names (and a clrheap fixture's note) for the modules it lacks
            TypeNames typeNames = names != null ? session.typeNames().orElse(TypeNames.load(names)) : session.typeNames();
            return map(out, err, session, typeNames);
        });
    }

    /** {@code --emulate}: builds the scenario's process in memory and draws it (found the dump way, through g_dacTable). */
    private int mapEmulated(PrintWriter out, PrintWriter err) throws IOException, InterruptedException {
        EmulatedTarget emulated;
        try {
            emulated = source.openEmulated(false, line -> note(err, line));
        } catch (EmulatedTarget.Unavailable e) {
            err.println("clrheap map: " + e.getMessage());
            return WalkCommand.EXIT_CANNOT_OPEN;
        }
        DumpSession session = emulated.session();
        return map(out, err, session, names != null ? session.typeNames().orElse(TypeNames.load(names)) : session.typeNames());
    }

    private int map(PrintWriter out, PrintWriter err, DumpSession session, TypeNames typeNames) throws IOException, InterruptedException {
        Target target = session.target();
        String what = session.name();
        DiscoveredHeap heap = session.heap();
        if (!quiet) {
            err.printf(Locale.ROOT, "%s: %s (%s), %d heap%s, %d regions%n", what, target.describe(), target.identification(),
                    heap.heaps().size(), heap.heaps().size() == 1 ? "" : "s", heap.regionsByAddress().size());
        }
        WalkRules rules = WalkRules.of(target.layout());
        HeapWalker walker = session.walker();
        HeapMap map;
        try (Progress progress = quiet ? Progress.NONE : Progress.start(err, walker)) {
            map = HeapMap.build(walker, heap, rules, typeNames, MapLimits.DEFAULT.withMaxObjects(maxObjects), parallel);
        }
        long started = System.nanoTime();
        try {
            MapHtmlWriter.write(map, new MapPage(what, target.describe()), html);
        } catch (IOException e) {
            err.println("clrheap map: cannot write " + html + ": " + e.getMessage());
            return 1;
        }
        if (!quiet) {
            err.printf(Locale.ROOT, "clrheap: page written in %,d ms: %,d KiB%n", (System.nanoTime() - started) / 1_000_000, Files.size(html) >> 10);
        }
        out.printf(Locale.ROOT, "wrote %s: %,d regions, %,d objects (%,d drawn one by one, %,d regions by bucket), %,d types%n", html,
                map.regions().size(), map.objects(), map.detailedObjects(), map.aggregatedRegions(), map.types().size());
        return 0;
    }

    private void note(PrintWriter err, String note) {
        if (!quiet) {
            err.println("clrheap: " + note);
        }
    }
}
