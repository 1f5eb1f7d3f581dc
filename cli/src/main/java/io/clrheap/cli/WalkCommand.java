package io.clrheap.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.report.DumpHeapStat;
import io.clrheap.walker.sos.SosEeHeap;
import io.clrheap.walker.graph.ObjectReferences;
import io.clrheap.walker.report.TypeNames;
import io.clrheap.walker.source.live.LiveProcess;
import io.clrheap.walker.source.live.LiveProcessException;
import io.clrheap.walker.source.live.ProcessSuspension;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.fields.ObjectFields;
import io.clrheap.walker.heap.SegmentKind;
import io.clrheap.walker.query.ObjectCriteria;
import io.clrheap.walker.query.ObjectFilter;
import io.clrheap.walker.query.StringStatistics;
import io.clrheap.walker.Dumps;
import io.clrheap.walker.OpenOptions;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetException;
import io.clrheap.walker.walk.HeapWalker;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code clrheap walk DUMP}: finds the GC heap in a dump without the DAC and reports on it.
 *
 * <p>Long because it is the one command with every report (stat, objects, eeheap, handles, verify, refs, strings) and
 * the dumpheap-style filters as picocli fields, with their usage checks before the dump is opened; each report's
 * printing lives in a class of its own.
 */
@Command(
        name = "walk",
        mixinStandardHelpOptions = true,
        description = {"Find and walk the GC heap of a .NET 8/9/10 process dump, or of a running process, without the DAC.",
            "(With --engine dac or dac-heapwalk: through Microsoft's DAC of the dump's build, run in a child "
                    + "process.) The dump is a Linux x64 ELF core (.xz accepted), a Windows x64 minidump, or a clrheap fixture "
                    + "bundle (.clrheap.tar.xz).",
            "The runtime build and GC flavour are read from the dump itself.",
            "With --emulate, the walk is over an emulated process instead, built in memory from a scenario;",
            "--in-process then finds its heap the source article's way (docs/reference/clr-layouts.md section 1):",
            "a thread's allocation context -> gc_reserved_1 -> GCHeap -> vtable slot 69 DiagDescrGenerations, called "
                    + "as a native function, and the frozen segment list.",
            "With --pid, the walk reads a running Linux process's memory (process_vm_readv) with the same discovery;",
            "--suspend stops every thread of it (ptrace) for the walk and resumes them after, also on errors and "
                    + "Ctrl-C."},
        footer = {
            "",
            "Examples:",
            "  ./clrheap walk golden/real/net8-svr/core.xz --stat",
            "  ./clrheap walk core.1234 --objects > objects.tsv",
            "  ./clrheap walk golden/real/net10-svr/core.xz --eeheap",
            "  ./clrheap walk golden/real/net9-wks/core.xz --handles --json",
            "  ./clrheap walk golden/real/net8-svr/core.xz --roots",
            "  ./clrheap walk golden/real/net8-nomodule/core.xz --module Sarif.Multitool --verify",
            "  ./clrheap walk --emulate every-edge --runtime net10 --in-process --eeheap",
            "  ./clrheap walk --pid 4242 --stat",
            "  sudo ./clrheap walk --pid 4242 --verify --suspend",
            "  ./clrheap walk golden/real/net9-svr/core.xz --engine dac --dac /path/to/9.0.1/libmscordaccore.so --stat",
            "  ./clrheap walk fixtures/default-net8-server.core --engine dac-heapwalk --verify",
            "",
            "Exit codes: 0 success; 1 problems found (--verify) or a failure (the process exited mid-walk; a DAC call "
                    + "failed or the DAC crashed, the call named); 2 bad usage (no such process); 3 the dump or process cannot "
                    + "be opened as a .NET process (not a core, not .NET, unknown build, module headers missing, permission "
                    + "denied; no DAC for the dump's build)."})
final class WalkCommand implements Callable<Integer> {

    static final int EXIT_CANNOT_OPEN = 3;

    @Mixin
    HeapSource source = new HeapSource();

    @Option(names = "--suspend", description = "With --pid: stop every thread of the process (ptrace) while it is walked; they run again afterwards.")
    boolean suspend;

    @Option(names = "--in-process", description = "With --emulate: discover the heap through native calls into the process (DiagDescrGenerations) instead of g_dacTable.")
    boolean inProcess;

    @CommandLine.ArgGroup(exclusive = true)
    Report report = new Report();

    static final class Report {
        @Option(names = "--stat", description = "Objects and bytes per type, as SOS dumpheap -stat prints them (the default).")
        boolean stat;

        @Option(names = "--objects", description = "Every object: address, MT, size (unaligned), generation, heap, kind, type; tab-separated (the answer key's objects.tsv).")
        boolean objects;

        @Option(names = "--eeheap", description = "SOS eeheap -gc: per heap its regions by generation, NonGC, large and pinned object heaps; allocated and committed totals.")
        boolean eeheap;

        @Option(names = "--handles", description = "SOS gchandles: every handle that holds an object, with its size and type; statistics; a count per type.")
        boolean handles;

        @Option(names = "--verify", description = "Walk and list every problem found; exit code 1 when there is any.")
        boolean verify;

        @Option(names = "--refs", description = "Every object's references, read from its type's GC descriptor: '0xSRC: 0xTARGET 0xTARGET ...' "
                + "in field order, one line per object that holds any (the format of a real golden folder's refs.txt).")
        boolean refs;

        @Option(names = "--roots", description = "Every root, tab-separated: kind, root (handle, queue slot, stack slot or register), object, flags "
                + "(pinned, weak, interior, conservative), thread (the answer key's roots.tsv). Threads' stacks and registers are scanned conservatively.")
        boolean roots;

        @Option(names = "--fields", description = "Every instance field of every object whose type has fields, tab-separated: object, field "
                + "(outer.inner inside a struct), declared type, offset from the object's start, value (the answer key's fields.tsv).")
        boolean fields;
    }

    @Option(names = "--json", description = "Machine-readable output of the chosen report.")
    boolean json;

    @Option(names = "--type", paramLabel = "TEXT", description = "--stat and --objects: only objects whose type name contains TEXT (as SOS dumpheap -type).")
    String typeFilter;

    @Option(names = "--mt", paramLabel = "HEX", description = "--stat and --objects: only objects of this MethodTable.")
    String mtFilter;

    @Option(names = "--min", paramLabel = "BYTES", converter = ByteCountConverter.class,
            description = "--stat and --objects: only objects of at least this size (bytes: 4096, 0x1000, 4k, 1m).")
    Long minSize;

    @Option(names = "--max", paramLabel = "BYTES", converter = ByteCountConverter.class,
            description = "--stat and --objects: only objects of at most this size (bytes: 4096, 0x1000, 4k, 1m).")
    Long maxSize;

    @Option(names = "--gen", paramLabel = "GEN", converter = GenerationConverter.class,
            description = "--stat and --objects: only objects of one generation: 0, 1, 2, loh, poh or frozen (SOS's gen0, gen1, gen2, large, "
                    + "pinned, foh too; 3 and 4 are loh and poh). Frozen segments are not gen2, as GC.GetGeneration says.")
    SegmentKind generation;

    @Option(names = "--live", description = "--stat and --objects: only objects reachable from the dump's roots (GC handles, finalization queues, frozen "
            + "segments; stack roots are not searched, so objects only a stack holds are left out).")
    boolean live;

    @Option(names = "--strings", description = "Only strings: with --objects each with its text; with --stat grouped by value (as SOS dumpheap -strings): count, total size, value.")
    boolean strings;

    @Option(names = "--module", paramLabel = "FILE", description = "The runtime binary, for dumps that lack its ELF headers.")
    Path module;

    @Option(names = "--names", paramLabel = "FILE", description = "Type names: lines of 'mt type' or 'address size mt type' (live-objects.txt).")
    Path names;

    @Option(names = "--parallel", paramLabel = "N", description = "Threads walking regions for --stat and --verify (default: the number of processors).")
    int parallel = Runtime.getRuntime().availableProcessors();

    @Option(names = {"-q", "--quiet"}, description = "No summary line on stderr.")
    boolean quiet;

    @Option(names = {"-v", "--verbose"}, description = "The walk's speed on stderr even when it took less than a second.")
    boolean verbose;

    /** A walk shorter than this says nothing of its speed unless --verbose: 7,000 objects need no speed line. */
    static final long SPEED_LINE_NANOS = 1_000_000_000L;

    @Option(names = "--engine", paramLabel = "ENGINE",
            description = "Who reads the heap: walker (clrheap's own, without the DAC; the default); dac (Microsoft's DAC, the way SOS "
                    + "walks: ISOSDacInterface, object by object with GetObjectData); dac-heapwalk (the DAC's own heap walker, "
                    + "IDacDbiInterface::WalkHeap: free objects skipped, sizes rounded up to 8). The DAC engines read dump files "
                    + "(ELF core or bundle) and running processes (--pid), and run the DAC in a child process; with them --stat, --objects, --eeheap print the DAC's "
                    + "answers and --verify lists the DAC calls that failed.")
    String engine = "walker";

    @Mixin
    DacOption dacOption = new DacOption();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Whether the walked memory is a mapped file whose pages --stat may give back once walked. */
    private boolean releasable = true;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        source.checkChoice(spec.commandLine(), true, inProcess, true);
        if (parallel < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--parallel must be at least 1");
        }
        if (suspend && !source.live()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--suspend goes with --pid");
        }
        if (names != null && !Files.isRegularFile(names)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--names " + names + ": no such file");
        }
        DacWalk.Engine dacEngine = DacWalk.Engine.of(engine).orElseThrow(() -> new CommandLine.ParameterException(spec.commandLine(),
                "--engine " + engine + ": one of walker, dac, dac-heapwalk"));
        if (dacEngine != DacWalk.Engine.WALKER && source.emulated()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--engine " + engine + " reads dumps and processes: give a DUMP (an ELF core or a bundle) or --pid");
        }
        if (dacEngine != DacWalk.Engine.WALKER && source.noCache) {
            // the DAC's child process opens the dump itself, with the cache folder of the environment
            throw new CommandLine.ParameterException(spec.commandLine(), "--no-cache goes with --engine walker only");
        }
        if (dacEngine != DacWalk.Engine.WALKER && report.handles) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--handles goes with --engine walker only");
        }
        if (dacEngine == DacWalk.Engine.WALKER && dacOption.dac != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--dac goes with --engine dac or dac-heapwalk");
        }
        if (filtersGiven() && !(report.objects || report.stat || noReportChosen())) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--type, --mt, --min, --max, --gen, --live and --strings go with --stat or --objects");
        }
        if (report.refs && dacEngine != DacWalk.Engine.WALKER) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--refs goes with --engine walker only");
        }
        if (report.roots && dacEngine != DacWalk.Engine.WALKER) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--roots goes with --engine walker only");
        }
        if (report.fields && (dacEngine != DacWalk.Engine.WALKER || json)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--fields goes with --engine walker only, without --json (dumpobj --json has each object's fields)");
        }
        if (filtersGiven() && dacEngine != DacWalk.Engine.WALKER) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--type, --mt, --min, --max, --gen, --live and --strings go with --engine walker");
        }
        if (source.emulated()) {
            return walkEmulated(out, err);
        }
        if (source.live()) {
            return walkLive(out, err);
        }
        source.checkDump(spec.commandLine());
        Path dump = source.dump;
        if (module != null && !Files.isRegularFile(module)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--module " + module + ": no such file");
        }
        OpenOptions options = OpenOptions.DEFAULT.withModule(module).withCoreCache(source.coreCache()).withNotes(note -> note(err, note));
        return DumpOpener.open("walk", dump, options, err, session -> {
            // names from the dump's metadata; --names (and a clrheap fixture's note) for the modules it lacks
            TypeNames typeNames = names != null ? session.typeNames().orElse(TypeNames.load(names)) : session.typeNames();
            Target target = session.target();
            if (module != null && target.module().symbolsFrom().equals("dump memory")) {
                note(err, "--module ignored: the dump holds the runtime module's headers");
            }
            if (dacEngine != DacWalk.Engine.WALKER) {
                if (session.format().equals("minidump")) {
                    err.println("clrheap walk: " + dump + " is a minidump of a Windows process; the Linux DAC reads Linux ELF cores and bundles");
                    return EXIT_CANNOT_OPEN;
                }
                DacWalk.Report which = report.objects ? DacWalk.Report.OBJECTS : report.eeheap ? DacWalk.Report.EEHEAP
                        : report.verify ? DacWalk.Report.VERIFY : DacWalk.Report.STAT;
                return new DacWalk(out, err, quiet, json).run(dacEngine, dacOption, dump, target, which, typeNames);
            }
            return walk(out, err, session, typeNames);
        });
    }

    /** The walk's progress bar, ended before the walk's summary line is printed. */
    private Progress progress = Progress.NONE;

    /** The runtime object of the JSON reports of this walk. */
    private ObjectNode runtime;

    private int walk(PrintWriter out, PrintWriter err, DumpSession session, TypeNames typeNames) throws IOException, InterruptedException {
        Target target = session.target();
        runtime = RuntimeJson.of(target);
        DiscoveredHeap heap = session.heap();
        String what = session.name();
        if (!quiet) {
            err.printf("%s: %s (%s), %d heap%s, %d regions, runtime module at 0x%x%n", what,
                    target.describe(), target.identification(), heap.heaps().size(), heap.heaps().size() == 1 ? "" : "s",
                    heap.regionsByAddress().size(), target.module().base());
            // the runtime published another offset than the layout's: the published one was used; the layout is at fault
            heap.profileNotes().forEach(p -> err.printf("clrheap: note: the layout (%s) is to fix, not the heap: %s%n",
                    target.layoutSource(), p.describe()));
        }
        HeapWalker walker = session.walker();
        // a live process is read into fresh copies: no mapped pages to give back (and looking for them would read it all again)
        releasable = !(target.memory() instanceof LiveProcess);
        try (Progress progress = quiet ? Progress.NONE : Progress.start(err, walker)) {
            this.progress = progress;
            int exit = report(out, err, session, walker, typeNames);
            typeNames.missingMetadataNote().ifPresent(note -> note(err, note));
            return exit;
        } finally {
            this.progress = Progress.NONE;
        }
    }

    /**
     * {@code --pid}: walks a running process, found the way a dump's runtime is (the runtime module's exports, read from
     * its memory); with {@code --suspend} every thread of it is stopped for the walk and resumed after.
     */
    private int walkLive(PrintWriter out, PrintWriter err) throws IOException, InterruptedException {
        int pid = source.pid;
        ProcessSuspension suspension = null;
        try {
            if (suspend) {
                suspension = ProcessSuspension.suspend(pid);
                note(err, String.format("suspended %d threads of process %d", suspension.threads().size(), pid));
            }
            TypeNames given = names != null ? TypeNames.load(names) : TypeNames.none();
            // the stopped threads' registers give the stack roots; a running process's stacks are not scanned
            try (DumpSession session = Dumps.attach(pid, OpenOptions.DEFAULT.withModule(module), suspension != null ? suspension : List::of)) {
                TypeNames typeNames = session.typeNames().orElse(given);
                if (!suspend) {
                    note(err, "the process runs while it is walked: objects it allocates or moves meanwhile may be missed or reported as problems (--suspend stops it)");
                }
                DacWalk.Engine dacEngine = DacWalk.Engine.of(engine).orElseThrow();
                if (dacEngine != DacWalk.Engine.WALKER) {
                    DacWalk.Report which = report.objects ? DacWalk.Report.OBJECTS : report.eeheap ? DacWalk.Report.EEHEAP
                            : report.verify ? DacWalk.Report.VERIFY : DacWalk.Report.STAT;
                    return new DacWalk(out, err, quiet, json).run(dacEngine, dacOption, Path.of("process " + pid), pid, session.target(), which,
                            typeNames);
                }
                return walk(out, err, session, typeNames);
            } catch (TargetException e) {
                err.println("clrheap walk: " + e.getMessage());
                return EXIT_CANNOT_OPEN;
            }
        } catch (RuntimeException e) {
            LiveProcessException live = liveCause(e);
            if (live == null) {
                throw e;
            }
            err.println("clrheap walk: " + live.getMessage());
            return switch (live.kind()) {
                case NO_SUCH_PROCESS -> 2;
                case PERMISSION_DENIED -> EXIT_CANNOT_OPEN;
                case EXITED, FAILED -> 1;
            };
        } finally {
            if (suspension != null) {
                suspension.close();
                note(err, "resumed process " + pid);
            }
        }
    }

    /** The LiveProcessException behind {@code e} (a region walk on another thread wraps what it met), or null. */
    private static LiveProcessException liveCause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof LiveProcessException live) {
                return live;
            }
        }
        return null;
    }

    /** {@code --emulate}: builds the scenario's process in memory and walks it, through the dump path or in-process. */
    private int walkEmulated(PrintWriter out, PrintWriter err) throws IOException, InterruptedException {
        EmulatedTarget emulated;
        try {
            emulated = source.openEmulated(inProcess, line -> note(err, line));
        } catch (EmulatedTarget.Unavailable e) {
            err.println("clrheap walk: " + e.getMessage());
            return EXIT_CANNOT_OPEN;
        }
        DumpSession session = emulated.session();
        if (inProcess) {
            session.inProcessRoute().ifPresent(r -> note(err, String.format(
                    "in-process: %s -> GCHeap 0x%x -> vtable 0x%x -> DiagDescrGenerations 0x%x: %d ranges; frozen list from dummy segment 0x%x",
                    r.thread().isEmpty() ? "g_pGCHeap (workstation GC: gc_reserved_1 is 0)" : r.thread() + " gc_reserved_1",
                    r.gcHeap(), r.vtable(), r.descrGenerations(), r.ranges(), r.frozenHandle())));
        }
        return walk(out, err, session, session.typeNames());
    }

    private int report(PrintWriter out, PrintWriter err, DumpSession session, HeapWalker walker, TypeNames typeNames)
            throws IOException, InterruptedException {
        DiscoveredHeap heap = session.heap();
        ObjectFilter filter = filter(session, typeNames);
        if (report.objects) {
            return objects(out, err, walker, heap, typeNames, filter, strings ? session.fields() : null);
        }
        if (strings) { // --stat --strings: grouped by value, as dumpheap -strings
            StringStatistics statistics = new StringStatistics(session.memory(), session.target().layout());
            walker.walk(filter.filtering(statistics));
            progress.close();
            if (json) {
                ObjectNode root = StringStatReport.json(statistics);
                root.set("runtime", RuntimeJson.of(session.target()));
                printJson(out, root);
            } else {
                StringStatReport.print(out, statistics);
            }
            return 0;
        }
        if (report.eeheap) {
            SosEeHeap r = session.eeHeap();
            if (json) {
                ObjectNode root = r.json();
                root.set("runtime", RuntimeJson.of(session.target()));
                ArrayNode problems = root.putArray("problems");
                heap.problems().forEach(p -> problems.add(p.describe()));
                printJson(out, root);
            } else {
                out.print(r.text());
                out.flush();
                heap.problems().forEach(p -> out.println("problem: " + p.describe()));
            }
            return 0;
        }
        if (report.handles) {
            return HandleReport.print(out, json, session.handleTables(), session, typeNames);
        }
        if (report.refs) {
            long start = System.nanoTime();
            RefsReport.Summary r = RefsReport.print(out, walker, new ObjectReferences(session.memory(), session.target().layout()), heap.freeMethodTable());
            progress.close();
            long nanos = System.nanoTime() - start;
            if (!quiet && (verbose || nanos > SPEED_LINE_NANOS)) {
                err.printf("clrheap: walked %,d objects and read %,d references in %,d ms%n", r.objects(), r.references(), nanos / 1_000_000);
            }
            if (r.problems() > 0 && !quiet) {
                err.printf("clrheap: %d problem%s found while walking; run with --verify to list them%n", r.problems(), r.problems() == 1 ? "" : "s");
            }
            return 0;
        }
        if (report.roots) {
            return RootsReport.print(out, err, json, quiet, session, typeNames);
        }
        if (report.fields) {
            return FieldsReport.print(out, err, quiet, session, typeNames);
        }
        if (report.verify) {
            return VerifyReport.run(out, json, session.handleTables(), walker, heap, typeNames, parallel, session.target());
        }
        return stat(out, err, walker, heap, typeNames, filter);
    }

    private boolean filtersGiven() {
        return typeFilter != null || mtFilter != null || minSize != null || maxSize != null || generation != null || live || strings;
    }

    private boolean noReportChosen() {
        return !(report.objects || report.eeheap || report.handles || report.verify || report.refs || report.roots || report.fields || report.stat);
    }

    /** The dumpheap-style filters given; {@code --live} builds the object graph (one more walk). */
    private ObjectFilter filter(DumpSession session, TypeNames names) {
        Long mt = null;
        if (mtFilter != null) {
            String digits = mtFilter.startsWith("0x") || mtFilter.startsWith("0X") ? mtFilter.substring(2) : mtFilter;
            if (digits.isEmpty() || digits.length() > 16 || !digits.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--mt " + mtFilter + ": not a hex MethodTable address");
            }
            mt = Long.parseUnsignedLong(digits, 16);
        }
        return session.filter(new ObjectCriteria(typeFilter, mt, minSize, maxSize, generation, live, strings), names);
    }

    private void note(PrintWriter err, String note) {
        if (!quiet) {
            err.println("clrheap: " + note);
        }
    }

    private int stat(PrintWriter out, PrintWriter err, HeapWalker walker, DiscoveredHeap heap, TypeNames names, ObjectFilter filter)
            throws InterruptedException {
        DumpHeapStat stat = new DumpHeapStat();
        long[] problems = {heap.problems().size()};
        long start = System.nanoTime();
        walker.releaseWalkedMemory(releasable); // each region is read once: its pages need not stay resident
        walker.walkRegions(() -> new StatWithProblems(filter), part -> {
            stat.merge(part.stat);
            problems[0] += part.problems;
        }, parallel);
        long nanos = System.nanoTime() - start;
        progress.close(); // the bar's line ends before the summary
        if (!quiet && (verbose || nanos > SPEED_LINE_NANOS)) {
            // the walk phase alone (JVM start, opening the dump and discovery excluded): docs/benchmarks.md's performance figures
            err.printf("clrheap: walked %,d objects (%,d MiB) in %,d ms on %d thread%s: %,.1f M objects/s%n", stat.objects(),
                    stat.bytes() >> 20, nanos / 1_000_000, parallel, parallel == 1 ? "" : "s",
                    stat.objects() / Math.max(1e-9, nanos / 1e9) / 1e6);
        }
        if (json) {
            ObjectNode root = stat.toJson(names, heap.freeMethodTable());
            if (runtime != null) {
                root.set("runtime", runtime);
            }
            // problems: what discovery found wrong, described; problemCount: those and every problem the walk met
            ArrayNode described = root.putArray("problems");
            heap.problems().forEach(p -> described.add(p.describe()));
            root.put("problemCount", problems[0]);
            printJson(out, root);
        } else {
            stat.print(out, names, heap.freeMethodTable());
        }
        noMatchNote(err, stat.objects());
        if (problems[0] > 0 && !quiet) {
            err.printf("clrheap: %d problem%s found while walking; run with --verify to list them%n", problems[0], problems[0] == 1 ? "" : "s");
        }
        return 0;
    }

    /** {@code --objects}; with {@code --strings} ({@code text} given) each string's text too. */
    private int objects(PrintWriter out, PrintWriter err, HeapWalker walker, DiscoveredHeap heap, TypeNames names, ObjectFilter filter,
            ObjectFields text) throws IOException {
        ObjectListPrinter printer = new ObjectListPrinter(out, json, names, heap.freeMethodTable(), text);
        long[] listed = {0};
        walker.walk(filter.filtering((address, mt, size, region) -> {
            listed[0]++;
            printer.object(address, mt, size, region);
        }));
        printer.end();
        noMatchNote(err, listed[0]);
        return 0;
    }

    /** An empty answer to a filtered query says so on stderr (the report itself keeps its header, as SOS's does). */
    private void noMatchNote(PrintWriter err, long matched) {
        if (matched > 0 || quiet || !filtersGiven()) {
            return;
        }
        StringBuilder given = new StringBuilder();
        java.util.function.BiConsumer<String, Object> add = (name, value) -> {
            if (value != null && !Boolean.FALSE.equals(value)) {
                given.append(given.isEmpty() ? "" : " ").append(name).append(value instanceof Boolean ? "" : " " + value);
            }
        };
        add.accept("--type", typeFilter);
        add.accept("--mt", mtFilter);
        add.accept("--min", minSize);
        add.accept("--max", maxSize);
        add.accept("--gen", generation == null ? null : generation.id());
        add.accept("--live", live);
        add.accept("--strings", strings);
        err.println("clrheap: no object matched " + given);
    }

    static void printJson(PrintWriter out, ObjectNode node) {
        try {
            out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(node));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
