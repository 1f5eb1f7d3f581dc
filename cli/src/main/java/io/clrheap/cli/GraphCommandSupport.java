package io.clrheap.cli;

import io.clrheap.walker.DumpSession;
import io.clrheap.walker.OpenOptions;
import io.clrheap.walker.report.TypeNames;
import io.clrheap.walker.graph.ObjectGraph;
import io.clrheap.walker.graph.ThreadScan;
import java.io.IOException;
import java.util.Locale;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;

/**
 * What {@code gcroot} and {@code objsize} share: the heap (a dump or {@code --emulate}), the type names, the address
 * argument and the note that the roots searched are the dump's handles and finalization queues, not its stacks.
 */
final class GraphCommandSupport {

    /**
     * The options {@code gcroot} and {@code objsize} share: the runtime binary and a names file. A picocli mixin (the
     * ADDR positional stays in each command: picocli checks a mixin's positionals on their own, from index 0).
     */
    static final class ObjectOptions {
        @picocli.CommandLine.Option(names = "--module", paramLabel = "FILE", description = "The runtime binary, for dumps that lack its ELF headers.")
        Path module;

        @picocli.CommandLine.Option(names = "--names", paramLabel = "FILE", description = "Type names for what the dump's metadata cannot name.")
        Path names;
    }

    /** What a command does with the opened session. */
    interface Use {
        int with(DumpSession session, TypeNames names) throws IOException, InterruptedException;
    }

    /**
     * What a report's roots are: the handle kinds, the finalization queue, and how many managed threads' stacks were
     * scanned (conservatively), or why none was; said in every report that counts roots.
     */
    static String rootsSearched(ObjectGraph graph) {
        long scanned = graph.threads().stream().filter(ThreadScan::scanned).count();
        String stacks;
        if (scanned > 0) {
            stacks = String.format(Locale.ROOT, "the stacks and registers of %d of %d managed threads (conservative: every word that points into an "
                    + "object), thread-static arrays", scanned, graph.threads().size());
        } else {
            String why = graph.threads().stream().map(ThreadScan::skipped).filter(java.util.Objects::nonNull).findFirst()
                    .orElse("the thread store lists no managed thread");
            stacks = "no thread's stack (" + why + ")";
        }
        return "roots searched: strong, pinned, async-pinned, ref-counted and sized-ref handles, dependent handles through their primaries, "
                + "the f-reachable finalization queue, " + stacks;
    }

    private GraphCommandSupport() {
    }

    /**
     * Whether {@code address} is no object start of {@code graph}: then it says so on {@code err} as
     * {@code clrheap COMMAND: 0x… is no object start; it lies in the object at 0x… (TYPE)} and the command exits 1.
     */
    static boolean noObjectStart(String command, PrintWriter err, io.clrheap.walker.graph.HeapGraph graph, io.clrheap.walker.report.TypeNames names,
                                 long free, long address) {
        if (graph.indexOf(address) >= 0) {
            return false;
        }
        int holder = graph.objectHolding(address);
        err.printf(Locale.ROOT, "clrheap %s: 0x%x is no object start%s%n", command, address, holder < 0 ? " (no object holds it)"
                : String.format(Locale.ROOT, "; it lies in the object at 0x%x (%s)", graph.address(holder), names.display(graph.methodTable(holder), free)));
        return true;
    }

    /**
     * The ADDR argument: the second positional, or the first with {@code --emulate} (which takes no DUMP).
     */
    static String address(CommandLine cli, HeapSource source, String second) {
        if (second == null && source.emulated() && source.dump != null) {
            String first = source.dump.toString();
            source.dump = null;
            return first;
        }
        if (second == null) {
            throw new CommandLine.ParameterException(cli, "give the object's address (ADDR)");
        }
        return second;
    }

    static long parseAddress(CommandLine cli, String text) {
        String digits = text.startsWith("0x") || text.startsWith("0X") ? text.substring(2) : text;
        if (digits.isEmpty() || digits.length() > 16 || !digits.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw new CommandLine.ParameterException(cli, text + ": not a hex address (e.g. 0x7f0000400048)");
        }
        return Long.parseUnsignedLong(digits, 16);
    }

    static int open(String command, CommandLine cli, HeapSource source, Path module, Path names, PrintWriter err, Use use)
            throws IOException, InterruptedException {
        source.checkChoice(cli, false, false);
        if (names != null && !Files.isRegularFile(names)) {
            throw new CommandLine.ParameterException(cli, "--names " + names + ": no such file");
        }
        if (source.emulated()) {
            EmulatedTarget emulated;
            try {
                emulated = source.openEmulated(false, line -> err.println("clrheap: " + line));
            } catch (EmulatedTarget.Unavailable e) {
                err.println("clrheap " + command + ": " + e.getMessage());
                return WalkCommand.EXIT_CANNOT_OPEN;
            }
            DumpSession session = emulated.session();
            return use.with(session, withFile(session, names));
        }
        source.checkDump(cli);
        if (module != null && !Files.isRegularFile(module)) {
            throw new CommandLine.ParameterException(cli, "--module " + module + ": no such file");
        }
        OpenOptions options = OpenOptions.DEFAULT.withModule(module).withCoreCache(source.coreCache()).withNotes(note -> err.println("clrheap: " + note));
        return DumpOpener.open(command, source.dump, options, err, session -> use.with(session, withFile(session, names)));
    }

    private static TypeNames withFile(DumpSession session, Path names) throws IOException {
        return names != null ? session.typeNames().orElse(TypeNames.load(names)) : session.typeNames();
    }
}
