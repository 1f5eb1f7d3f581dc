package io.clrheap.capture;

import io.clrheap.walker.source.PendingFolder;
import io.clrheap.capture.ipc.DiagnosticsClient;
import io.clrheap.capture.ipc.DiagnosticsException;
import io.clrheap.capture.snapshot.GcHeapSnapshot;
import io.clrheap.walker.source.elf.ElfCore;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/**
 * Records a golden/real folder from a running .NET 8/9/10 process: a full dump through the diagnostics IPC, then the
 * runtime's own heap snapshot (an EventPipe session with the GC heap dump keywords, which makes the runtime collect
 * and walk its heap: dump first, snapshot second, the snapshot's addresses moved back through its GC's moved ranges so
 * that they are the dump's), the dump trimmed with its environment blanked and xz-compressed. Everything is
 * written into a work folder beside the output and moved into place at the end.
 */
public final class Capture {

    /** Dumps and snapshots taken, by default, before settling for the best one (or giving up) when none describes its dump cleanly. */
    public static final int ATTEMPTS = 5;
    /** The pause before the second attempt, doubled before each later one: a busy process may be quieter a little later. */
    static final Duration FIRST_PAUSE = Duration.ofSeconds(1);
    /** Dumps taken at most, one after another, while none can be used (taken during a GC, or its createdump deadlocked). */
    static final int REDUMPS = 6;
    /** The pause before dumping again after a dump that cannot be used, doubled each time. */
    static final Duration REDUMP_PAUSE = Duration.ofMillis(100);
    /** The file beside live-objects.txt that lists the snapshot's objects the dump does not hold (only when there are any). */
    public static final String CHANGED_OBJECTS = "changed-objects.txt";
    /** info.txt's line stating how many objects live-objects.txt lists (golden/real's form, which golden check reads). */
    public static final String LIVE_OBJECTS_COUNT = "live objects (EventPipe heap walk): ";

    /** GC | GCHeapSurvivalAndMovement | GCHeapDump | GCHeapCollect | Type | GCHeapAndTypeNames (the runtime's event manifest; docs/ipc-protocol.md section 6). */
    public static final long KEYWORDS = 0x1L | 0x400000L | 0x100000L | 0x800000L | 0x80000L | 0x1000000L;
    public static final int LEVEL_VERBOSE = 5;
    public static final String RUNTIME_PROVIDER = "Microsoft-Windows-DotNETRuntime";

    /**
     * What to capture and how long to wait.
     *
     * @param pid the process
     * @param out the folder to write (must not exist, or be empty)
     * @param timeout the longest wait for any answer of the runtime (and for the dump itself)
     * @param idle the trace is complete when no byte has come for this long
     * @param maxTrace the longest the trace session runs
     * @param xzPreset the xz preset of core.xz (0-9)
     * @param tempFolders where the runtime's diagnostics socket may be
     * @param attempts dumps and snapshots taken at most when none describes its dump cleanly (1 or more)
     */
    public record Options(long pid, Path out, Duration timeout, Duration idle, Duration maxTrace, int xzPreset, List<Path> tempFolders, int attempts) {

        public Options {
            if (attempts < 1) {
                throw new IllegalArgumentException("attempts must be at least 1, not " + attempts);
            }
        }

        public static Options of(long pid, Path out) {
            return new Options(pid, out, Duration.ofSeconds(120), Duration.ofSeconds(3), Duration.ofSeconds(120), 6, List.of(Path.of("/tmp")), ATTEMPTS);
        }
    }

    /**
     * What a capture wrote.
     *
     * @param liveObjects the objects of live-objects.txt
     * @param changedObjects the snapshot's objects left out of it because the dump does not hold them (changed-objects.txt)
     * @param relocatedObjects the snapshot's objects it listed where its GC moved them, written where the dump has them
     * @param attempts the dumps and snapshots taken
     */
    public record Result(Path folder, long fullDumpBytes, long coreXzBytes, long traceBytes, int liveObjects, int changedObjects, long relocatedObjects,
            int attempts, CoreTrimmer.Result trim, Duration dumpTime, Duration traceTime, Duration trimTime, Duration total) {
    }

    /** One dump and its snapshot. */
    private record Attempt(int number, Path full, Path trace, long fullBytes, long traceBytes, Duration dumpTime, Duration traceTime,
            GcHeapSnapshot snapshot, SnapshotAgreement agreement) {
    }

    private Capture() {
    }

    public static Result run(Options o, Consumer<String> progress) throws IOException {
        long t0 = System.nanoTime();
        Path out = o.out().toAbsolutePath().normalize();
        if (Files.exists(out) && (!Files.isDirectory(out) || !isEmpty(out))) {
            throw new IOException(out + " exists and is not an empty folder");
        }
        if (ProcessHandle.of(o.pid()).isEmpty()) {
            throw new DiagnosticsException("no process " + o.pid());
        }
        // built in a hidden temporary folder beside the target and renamed into place when complete: a failed or
        // interrupted capture (SIGINT, SIGTERM, a full disk) leaves nothing under the target's name
        PendingFolder pending = PendingFolder.beside(out);
        Path work = pending.path();
        try (pending) {
            DiagnosticsClient client = DiagnosticsClient.forProcess(o.pid(), o.tempFolders(), o.timeout());
            // 1. the dump, 2. the snapshot, whose addresses are moved back to where its GC found the objects; again when
            // the snapshot still lists objects the dump does not hold (a busy process allocated or collected between
            // the two), and then the attempt that agrees best is kept
            Attempt best = null;
            Duration pause = FIRST_PAUSE;
            int taken = 0;
            for (int attempt = 1; attempt <= o.attempts(); attempt++) {
                taken = attempt;
                if (attempt > 1) {
                    progress.accept(String.format(Locale.ROOT, "waiting %.0f s before attempt %d of %d ...", seconds(pause), attempt, o.attempts()));
                    sleep(pause);
                    pause = pause.multipliedBy(2);
                }
                Attempt a = attempt(o, client, work, attempt, progress);
                if (best == null || a.agreement().found() * best.agreement().checked() > best.agreement().found() * a.agreement().checked()) {
                    if (best != null) {
                        discard(best);
                    }
                    best = a;
                } else {
                    discard(a);
                }
                if (a.agreement().agrees()) {
                    break;
                }
                progress.accept("snapshot: does not describe the dump: " + a.agreement().describe()
                        + "; the process changed its heap between the dump and the snapshot"
                        + (attempt < o.attempts() ? "; taking the dump and the snapshot again" : ""));
            }
            SnapshotAgreement agreement = best.agreement();
            if (!agreement.agrees() && !agreement.enough()) {
                throw new DiagnosticsException(String.format(Locale.ROOT,
                        "after %d attempt%s the runtime's heap snapshot still does not describe its dump: at best %s. The process allocates or "
                                + "collects between the dump and the snapshot (a busy process); capture it while it is idle (no requests, no timers "
                                + "running), or try more attempts (--attempts N)",
                        taken, taken == 1 ? "" : "s", agreement.describe()));
            }
            GcHeapSnapshot snapshot = best.snapshot();
            Path full = best.full();
            Path trace = best.trace();
            long fullBytes = best.fullBytes();
            long traceBytes = best.traceBytes();
            Duration dumpTime = best.dumpTime();
            Duration traceTime = best.traceTime();
            java.util.Set<Long> leftOut = new java.util.HashSet<>();
            if (!agreement.changed().isEmpty()) {
                List<String> lines = new ArrayList<>();
                lines.add("# address size mt type: what the dump holds there  (objects of the runtime's heap snapshot that the dump, taken just");
                lines.add("# before it, does not hold at their address: allocated or moved between the two; left out of live-objects.txt and refs.txt)");
                for (SnapshotAgreement.Changed c : agreement.changed()) {
                    leftOut.add(c.node().address());
                    lines.add(c.line());
                }
                Files.write(work.resolve(CHANGED_OBJECTS), lines);
                progress.accept(String.format(Locale.ROOT, "snapshot: %s; the %,d others changed between the dump and the snapshot: left out of "
                        + "live-objects.txt, listed in %s", agreement.describe(), agreement.changed().size(), CHANGED_OBJECTS));
            }
            int attempts = taken;
            int listed = snapshot.write(work, leftOut);
            // 3. trim and compress
            long tr = System.nanoTime();
            progress.accept("trim and compress: core.xz (xz preset " + o.xzPreset() + ") ...");
            Path xz = work.resolve("core.xz");
            CoreTrimmer.Result trim;
            try (OutputStream f = new BufferedOutputStream(Files.newOutputStream(xz), 1 << 16);
                    XZOutputStream z = new XZOutputStream(f, new LZMA2Options(o.xzPreset()))) {
                trim = CoreTrimmer.trim(full, z);
            }
            Files.delete(full);
            Files.delete(trace);
            Duration trimTime = Duration.ofNanos(System.nanoTime() - tr);
            long xzBytes = Files.size(xz);
            progress.accept(String.format(Locale.ROOT, "trim: %s", trim.describe()));
            progress.accept(String.format(Locale.ROOT, "compress: core.xz %,d bytes in %.1f s", xzBytes, seconds(trimTime)));
            StringBuilder info = new StringBuilder(String.format(Locale.ROOT,
                    "name: %s%npid: %d%ncaptured by: clrheap capture%ndump: full, trimmed (%s)%nsnapshot: %d objects, %d trace bytes%n",
                    out.getFileName(), o.pid(), trim.describe(), snapshot.nodeCount(), traceBytes));
            if (snapshot.relocatedObjects() > 0) {
                info.append(String.format(Locale.ROOT, "relocated: %d objects listed where the snapshot's GC moved them, written where the dump has them "
                        + "(%d moved ranges undone)%n", snapshot.relocatedObjects(), snapshot.movedRanges()));
            }
            if (!leftOut.isEmpty()) {
                info.append(String.format(Locale.ROOT, "changed: %d objects of the snapshot are not in the dump as listed (%s), left out of "
                        + "live-objects.txt and refs.txt (roots.txt may still name them)%n", leftOut.size(), CHANGED_OBJECTS));
            }
            info.append(String.format(Locale.ROOT, "attempts: %d (the dump and snapshot of attempt %d kept)%n", attempts, best.number()));
            // the count golden check holds live-objects.txt to: a list cut short (a copy stopped mid-way) is refused
            info.append(String.format(Locale.ROOT, "%s%d (listed in live-objects.txt)%n", LIVE_OBJECTS_COUNT, listed));
            Files.writeString(work.resolve("info.txt"), info.toString());
            // 4. into place (replacing the empty folder checked above)
            pending.commit();
            return new Result(out, fullBytes, xzBytes, traceBytes, snapshot.nodeCount() - leftOut.size(), leftOut.size(), snapshot.relocatedObjects(),
                    attempts, trim, dumpTime, traceTime, trimTime, Duration.ofNanos(System.nanoTime() - t0));
        } catch (IOException | RuntimeException e) {
            if (hasFiles(work)) {
                throw pending.failed(e);
            }
            throw e; // nothing written yet (no process to talk to): nothing to name; the empty folder goes on close
        }
    }

    /** Takes a dump, then the snapshot, and checks that the snapshot describes the dump. */
    private static Attempt attempt(Options o, DiagnosticsClient client, Path work, int number, Consumer<String> progress) throws IOException {
        Path full = work.resolve("full-" + number + ".core");
        Path trace = work.resolve("snapshot-" + number + ".nettrace");
        long td = System.nanoTime();
        // A dump is taken again at once, before any snapshot is asked for, when it cannot be used: createdump suspends
        // the process wherever it is, and a busy one may be inside a GC, whose heap is not walkable
        // (gc_structures_invalid_cnt != 0); or the runtime's createdump fork deadlocked and was ended (CreatedumpWatch).
        Duration again = REDUMP_PAUSE;
        DumpHeapCheck heap;
        for (int dump = 1; ; dump++) {
            Optional<DumpHeapCheck> taken = dump(o, client, full, progress);
            heap = taken.orElse(null);
            String unusable = heap == null ? "the runtime's createdump fork made no progress for " + CreatedumpWatch.STALL.toSeconds()
                    + " s (a fork of a busy process can wait for ever on a lock another thread held): ended it"
                    : heap.gcInProgress() ? "taken during a GC (gc_structures_invalid_cnt is not 0: the heap is not walkable)" : null;
            if (unusable == null) {
                break;
            }
            Files.deleteIfExists(full);
            if (dump == REDUMPS) {
                throw new DiagnosticsException(String.format(Locale.ROOT, "%d dumps in a row could not be used, the last one because %s; "
                        + "capture the process when it allocates less", REDUMPS, unusable));
            }
            progress.accept(String.format(Locale.ROOT, "dump: %s; dumping again in %d ms (%d of %d)", unusable, again.toMillis(), dump + 1, REDUMPS));
            sleep(again);
            again = again.multipliedBy(2);
        }
        Duration dumpTime = Duration.ofNanos(System.nanoTime() - td);
        long fullBytes = Files.size(full);
        progress.accept(String.format(Locale.ROOT, "dump: %,d bytes in %.1f s", fullBytes, seconds(dumpTime)));
        heap.unread().ifPresent(why -> progress.accept("dump: its heap was not found (" + why + "): not checked for a GC in progress, and the "
                + "snapshot is checked against the dump's memory only"));
        long tt = System.nanoTime();
        progress.accept("snapshot: EventPipe session with the GC heap dump keywords (the runtime collects and walks its heap) ...");
        SnapshotTrace taken = SnapshotTrace.take(client, trace, o.idle(), o.maxTrace());
        GcHeapSnapshot snapshot = taken.snapshot();
        long traceBytes = taken.traceBytes();
        Duration traceTime = Duration.ofNanos(System.nanoTime() - tt);
        progress.accept(String.format(Locale.ROOT, "snapshot: %,d bytes, %,d events, %,d objects in %.1f s%s", traceBytes, taken.events(),
                snapshot.nodeCount(), seconds(traceTime), snapshot.relocatedObjects() == 0 ? ""
                        : String.format(Locale.ROOT, "; %,d of them listed where its GC moved them, moved back (%,d ranges)", snapshot.relocatedObjects(),
                                snapshot.movedRanges())));
        SnapshotAgreement agreement;
        try (ElfCore dump = ElfCore.open(full)) {
            agreement = SnapshotAgreement.check(dump, heap.regions(), snapshot.liveObjects());
        }
        return new Attempt(number, full, trace, fullBytes, traceBytes, dumpTime, traceTime, snapshot, agreement);
    }

    /**
     * Asks the runtime for a full dump into {@code full} and reads its heap's state; empty when the runtime's createdump
     * fork deadlocked and was ended (no dump to read).
     */
    private static Optional<DumpHeapCheck> dump(Options o, DiagnosticsClient client, Path full, Consumer<String> progress) throws IOException {
        progress.accept(String.format(Locale.ROOT, "dump: asking process %d for a full dump (%s) ...", o.pid(), client.endpoint().describe()));
        Set<Long> before = children(o.pid());
        List<Long> deadlocked;
        try (CreatedumpWatch watch = CreatedumpWatch.start(o.pid(), before, full)) {
            try {
                client.generateCoreDump(full, DiagnosticsClient.DUMP_TYPE_FULL, o.timeout());
            } catch (IOException e) {
                if (watch.ended().isEmpty()) {
                    throw e;
                }
            }
            watch.close();
            deadlocked = watch.ended();
        } finally {
            killNewChildren(o.pid(), before, progress);
        }
        if (!deadlocked.isEmpty()) {
            progress.accept("dump: ended the runtime's createdump fork, process " + deadlocked.getFirst());
            return Optional.empty();
        }
        if (!Files.isRegularFile(full)) {
            throw new DiagnosticsException("the runtime answered GenerateCoreDump but wrote no " + full);
        }
        return Optional.of(DumpHeapCheck.of(full));
    }

    private static void discard(Attempt a) throws IOException {
        Files.deleteIfExists(a.full());
        Files.deleteIfExists(a.trace());
    }

    private static void sleep(Duration d) throws IOException {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while waiting to capture again");
        }
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }

    private static boolean hasFiles(Path folder) {
        try {
            return Files.exists(folder) && !isEmpty(folder);
        } catch (IOException e) {
            return true;
        }
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (var s = Files.list(dir)) {
            return s.findAny().isEmpty();
        }
    }

    private static Set<Long> children(long pid) {
        return ProcessHandle.of(pid).map(p -> p.children().map(ProcessHandle::pid).collect(Collectors.toSet())).orElse(Set.of());
    }

    /**
     * The 8.0 single-file host forks to run its linked-in createdump, and the fork does not exit: it keeps serving
     * the diagnostics socket. The children that appeared during the dump are ended (and waited for, 10 s at most).
     */
    private static void killNewChildren(long pid, Set<Long> before, Consumer<String> progress) {
        List<ProcessHandle> fresh = new ArrayList<>();
        ProcessHandle.of(pid).ifPresent(p -> p.children().filter(c -> !before.contains(c.pid())).forEach(fresh::add));
        for (ProcessHandle c : fresh) {
            progress.accept("dump: ending the dump's child process " + c.pid() + " (left behind by the runtime's createdump fork)");
            c.destroyForcibly();
        }
        for (ProcessHandle c : fresh) {
            try {
                c.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
            } catch (Exception e) {
                progress.accept("dump: child " + c.pid() + " did not end within 10 s");
            }
        }
    }
}
