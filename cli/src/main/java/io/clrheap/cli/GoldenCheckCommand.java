package io.clrheap.cli;

import io.clrheap.conformance.corpus.RealGoldenCheck;
import io.clrheap.walker.source.CoreCache;
import io.clrheap.conformance.corpus.RealRootsCheck;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code clrheap golden check DIR}: the walker against a real golden folder's live-objects.txt. */
@Command(
        name = "check",
        mixinStandardHelpOptions = true,
        description = {"Walk DIR/core.xz (a Windows folder: DIR/dump.dmp.xz) and compare it with DIR/live-objects.txt, the "
                    + "runtime's own list of live objects (a golden/real folder, or one that clrheap capture wrote): every "
                    + "listed object must be found with its MethodTable and size, the walk must meet no problem, and every "
                    + "object found beyond the list (dead ones) must be free or have a real MethodTable. Prints what is "
                    + "missing, misread and extra. The list is the referee, so one that is empty, truncated (no final line "
                    + "feed, a line cut short), malformed, or at odds with the folder's own counts (info.txt's object count, "
                    + "selfreport.txt's OBJ addresses) is refused, naming the file and line. The walker's roots are held to the "
                    + "runtime's too: every listed object must be live by them (the threads' stacks scanned conservatively), "
                    + "and where DIR has roots.txt every handle root must be found, as weak and as pinning, and every "
                    + "stack-root object held by a thread root of the walker's; the objects live beyond the list are counted."},
        footer = {
            "",
            "Examples:",
            "  ./clrheap golden check golden/real/net8-svr",
            "  ./clrheap golden check golden/real/net10-windows-wks",
            "  ./clrheap golden check golden/real/net8-nomodule --module /path/to/Sarif.Multitool",
            "",
            "Exit codes: 0 the walk agrees with the list; 1 it does not; 2 bad usage; 3 the folder, its list or its "
                    + "dump cannot be read, or the list is refused."})
final class GoldenCheckCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "DIR", description = "The folder: core.xz (or core, dump.dmp.xz, dump.dmp) and live-objects.txt.")
    Path dir;

    @Option(names = "--module", paramLabel = "FILE", description = "The runtime binary, for dumps that lack its ELF headers.")
    Path module;

    @Option(names = "--no-cache", description = "Decompress the folder's .xz dump to a temporary file removed when the check ends, "
            + "instead of into the cache folder ($CLRHEAP_CACHE, else $XDG_CACHE_HOME/clrheap, else ~/.cache/clrheap).")
    boolean noCache;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!Files.isRegularFile(dir.resolve("live-objects.txt")) || RealGoldenCheck.dumpOf(dir).isEmpty()) {
            err.println("clrheap golden check: " + dir + " holds no core.xz (or core, dump.dmp.xz, dump.dmp) and live-objects.txt");
            return 3;
        }
        RealGoldenCheck.Report r;
        try {
            r = RealGoldenCheck.check(dir, Optional.ofNullable(module), noCache ? CoreCache.temporary() : CoreCache.fromEnvironment());
        } catch (Exception e) {
            err.println("clrheap golden check: " + dir + ": " + e.getMessage());
            return 3;
        }
        r.missing().forEach(l -> out.println("missing  " + l));
        r.misread().forEach(l -> out.println("misread  " + l));
        r.badExtras().forEach(l -> out.println("extra    " + l));
        r.problems().stream().limit(RealGoldenCheck.SHOWN).forEach(l -> out.println("problem  " + l));
        if (r.extras() > 0) {
            out.printf(Locale.ROOT, "extra objects (not in the list; dead or free): %,d%n", r.extras());
            r.extrasByType().entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(10)
                    .forEach(e -> out.printf(Locale.ROOT, "  %,8d %s%n", e.getValue(), e.getKey()));
        }
        RealRootsCheck roots = r.roots();
        roots.notLive().forEach(l -> out.println("not live " + l));
        roots.missingRoots().forEach(l -> out.println("no root  " + l));
        if (roots.youngNotLiveCount() > 0) {
            out.printf(Locale.ROOT, "not live in gen0/gen1: %,d listed objects the walker's roots do not keep; not held to: the process ran between its "
                    + "dump and its snapshot (changed-objects.txt), and a young object it allocated after the dump can lie where the dump holds a "
                    + "dead one of the same type%n", roots.youngNotLiveCount());
        }
        out.printf(Locale.ROOT, "roots: %,d of %,d managed threads' stacks scanned; %,d objects live by the walker's roots, %,d of them not in the list "
                + "(kept by conservative stack slots or by dead objects)%n", roots.threadsScanned(), roots.threads(), roots.live(), roots.keptBeyondList());
        if (roots.hasRootList()) {
            out.printf(Locale.ROOT, "roots.txt: %,d handle roots (%,d not found), %,d stack-root objects (%,d held by no thread root of the walker%s)%n",
                    roots.runtimeHandleRoots(), roots.handleRootsMissingCount(), roots.runtimeStackRoots(), roots.stackRootsMissingCount(),
                    roots.stacksChanged() ? "; not held to: the process ran between its dump and its snapshot, changed-objects.txt" : "");
        }
        if (r.passed()) {
            out.printf(Locale.ROOT, "%s: the walk agrees with live-objects.txt: %,d listed objects found with their MethodTable and size (%,d walked), "
                    + "every one live by the walker's roots%n", dir, r.listed(), r.walked());
            return 0;
        }
        out.printf(Locale.ROOT, "%s: the walk disagrees with live-objects.txt: %,d missing, %,d misread, %,d extra with no real MethodTable, %d problems, "
                + "%,d not live by the walker's roots, %,d runtime roots not found (of %,d listed)%n", dir, r.missingCount(), r.misreadCount(),
                r.badExtraCount(), r.problems().size(), roots.notLiveCount(), roots.handleRootsMissingCount() + (roots.stacksChanged() ? 0 : roots.stackRootsMissingCount()), r.listed());
        return 1;
    }
}
