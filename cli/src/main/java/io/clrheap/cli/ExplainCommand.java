package io.clrheap.cli;

import io.clrheap.process.NativeCalls;
import io.clrheap.walker.heap.DiscoveredHeap;
import io.clrheap.walker.explain.DiscoveryNarrator;
import io.clrheap.walker.explain.ExplainText;
import io.clrheap.walker.explain.InProcessNarrator;
import io.clrheap.walker.explain.ObjectExplainer;
import io.clrheap.walker.explain.ObjectExplanation;
import io.clrheap.walker.report.TypeNames;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.DumpSession;
import io.clrheap.walker.OpenOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code clrheap explain}: narrates how the heap is found, read by read, or how one object's size and successor follow. */
@Command(
        name = "explain",
        mixinStandardHelpOptions = true,
        description = {"Narrate the pointer chase that finds the GC heap, read by read.",
            "For each read: the structure, field, offset, address, value, where the offset comes from, and its bytes.",
            "On a dump: runtime module -> g_dacTable -> g_gcDacGlobals -> GcDacVars -> heaps -> generation tables -> "
                    + "regions -> threads' allocation contexts.",
            "With --emulate SCENARIO --in-process, on an emulated process: thread -> allocation context -> "
                    + "gc_reserved_1 -> GCHeap -> vtable slot 69 -> DiagDescrGenerations and its callbacks -> "
                    + "RegisterFrozenSegment -> the frozen segments -> UnregisterFrozenSegment.",
            "With --object ADDR: the region and generation holding that address, the object, and how its size and the "
                    + "next object's address are computed (as the walker computes them)."},
        footer = {
            "",
            "Examples:",
            "  ./clrheap explain golden/real/net8-svr/core.xz",
            "  ./clrheap explain golden/real/net10-svr/core.xz --all",
            "  ./clrheap explain golden/real/net9-wks/core.xz --object 0x7ec6eb000048 \\",
            "        --names golden/real/net9-wks/live-objects.txt",
            "  ./clrheap explain fixtures/default-net8-server.clrheap.tar.xz",
            "  ./clrheap explain --emulate default --in-process",
            "  ./clrheap explain --emulate default --gc workstation --in-process",
            "",
            "Without --all, heap 0 and the first 6 threads are narrated read by read, further heaps and threads get a "
                    + "line each; the in-process path lists the callbacks of 4 heaps.",
            "",
            "Exit codes: 0 success; 1 the --object address is in no region (the nearest is named) or another failure; "
                    + "2 bad usage (e.g. an address that is not hex); 3 the dump cannot be opened as a .NET process."})
final class ExplainCommand implements Callable<Integer> {

    @Mixin
    HeapSource source = new HeapSource();

    @Option(names = "--in-process", description = "With --emulate: narrate the in-process path (native calls into the process) instead of the dump path.")
    boolean inProcess;

    @Option(names = "--object", paramLabel = "ADDR", description = "Explain the object at (or holding) this hex address instead of the discovery.")
    String object;

    @Option(names = "--all", description = "Narrate every heap, thread and callback read by read.")
    boolean all;

    @Option(names = "--module", paramLabel = "FILE", description = "The runtime binary, for dumps that lack its ELF headers.")
    Path module;

    @Option(names = "--names", paramLabel = "FILE", description = "Type names for --object: lines of 'mt type' or 'address size mt type'.")
    Path names;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        source.checkChoice(spec.commandLine(), true, inProcess);
        if (source.emulated() && module != null) {
            throw usage("--module goes with a DUMP");
        }
        long address = object == null ? 0 : parseAddress(object);
        if (names != null && !Files.isRegularFile(names)) {
            throw usage("--names " + names + ": no such file");
        }
        if (source.emulated()) {
            return explainEmulated(out, err, address);
        }
        source.checkDump(spec.commandLine());
        Path dump = source.dump;
        if (module != null && !Files.isRegularFile(module)) {
            throw usage("--module " + module + ": no such file");
        }
        OpenOptions options = OpenOptions.DEFAULT.withModule(module).withCoreCache(source.coreCache()).withNotes(note -> err.println("clrheap: " + note));
        return DumpOpener.open("explain", dump, options, err, session -> {
            Target target = session.target();
            TypeNames typeNames = names != null ? session.typeNames().orElse(TypeNames.load(names)) : session.typeNames();
            if (object != null) {
                return explainObject(out, err, target, session.heap(), typeNames, address);
            }
            ExplainText.print(new DiscoveryNarrator(target, all).narrate(), out);
            return 0;
        });
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    /** {@code 0x7f0000400048} or {@code 7f0000400048}: hex, 1 to 16 digits. */
    private long parseAddress(String text) {
        String digits = text.startsWith("0x") || text.startsWith("0X") ? text.substring(2) : text;
        if (digits.isEmpty() || digits.length() > 16 || !digits.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw usage("--object " + text + ": not a hex address (e.g. 0x7f0000400048)");
        }
        return Long.parseUnsignedLong(digits, 16);
    }

    private int explainEmulated(PrintWriter out, PrintWriter err, long address) throws IOException {
        EmulatedTarget emulated;
        try {
            emulated = source.openEmulated(inProcess, line -> err.println("clrheap: " + line));
        } catch (EmulatedTarget.Unavailable e) {
            err.println("clrheap explain: " + e.getMessage());
            return WalkCommand.EXIT_CANNOT_OPEN;
        }
        DumpSession session = emulated.session();
        Target target = session.target();
        NativeCalls calls = emulated.calls();
        TypeNames typeNames = names != null ? session.typeNames().orElse(TypeNames.load(names)) : session.typeNames();
        if (object != null) {
            return explainObject(out, err, target, session.heap(), typeNames, address);
        }
        if (inProcess && io.clrheap.walker.runtime.GcMode.of(target.memory(), target.layout(), target.globalPointer("g_gcDacGlobals"))
                == io.clrheap.walker.runtime.GcMode.SEGMENTS) {
            // the emulated GC's functions are the regions GC's; a segments process has no in-process path to narrate
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--in-process: the emulated process runs the standalone segments GC "
                    + "(libclrgc.so), whose IGCHeap functions are not emulated; explain its dump path instead (without --in-process)");
        }
        ExplainText.print(inProcess ? new InProcessNarrator(target, calls, all).narrate() : new DiscoveryNarrator(target, all).narrate(), out);
        return 0;
    }

    private int explainObject(PrintWriter out, PrintWriter err, Target target, DiscoveredHeap heap, TypeNames typeNames, long address) {
        ObjectExplanation e = new ObjectExplainer(target, heap, typeNames).explain(address);
        ExplainText.print(e, out);
        if (e.region() == null) {
            err.printf(java.util.Locale.ROOT, "clrheap explain: 0x%x is in no region of the heap%s%n", address,
                    e.nearest() == null ? "" : "; the nearest is " + e.nearest());
            return 1;
        }
        return 0;
    }
}
