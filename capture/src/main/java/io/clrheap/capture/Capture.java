package io.clrheap.capture;

import io.clrheap.walker.source.FileTrees;
import io.clrheap.capture.ipc.DiagnosticsClient;
import io.clrheap.capture.ipc.DiagnosticsException;
import io.clrheap.capture.nettrace.Nettrace;
import io.clrheap.capture.nettrace.NettraceReader;
import io.clrheap.capture.snapshot.GcHeapSnapshot;
import io.clrheap.walker.source.elf.ElfCore;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/**
 * Records a golden/real folder from a running .NET 8/9/10 process: a full dump through the diagnostics IPC, then the
 * runtime's own heap snapshot (an EventPipe session with the GC heap dump keywords, which makes the runtime collect
 * and walk its heap: dump first, snapshot second, so that the snapshot's addresses — from before that GC's
 * relocation — are the dump's), the dump trimmed with its environment blanked and xz-compressed. Everything is
 * written into a work folder beside the output and moved into place at the end.
 */
public final class Capture {

    /** Dumps and snapshots taken before giving up on a snapshot that does not describe its dump. */
    static final int ATTEMPTS = 5;

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
     */
    public record Options(long pid, Path out, Duration timeout, Duration idle, Duration maxTrace, int xzPreset, List<Path> tempFolders) {

        public static Options of(long pid, Path out) {
            return new Options(pid, out, Duration.ofSeconds(120), Duration.ofSeconds(3), Duration.ofSeconds(120), 6, List.of(Path.of("/tmp")));
        }
    }

    /** What a capture wrote. */
    public record Result(Path folder, long fullDumpBytes, long coreXzBytes, long traceBytes, int liveObjects, CoreTrimmer.Result trim,
            Duration dumpTime, Duration traceTime, Duration trimTime, Duration total) {
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
        Path parent = out.getParent();
        Files.createDirectories(parent);
        Path work = Files.createTempDirectory(parent, "." + out.getFileName() + ".capture-");
        boolean moved = false;
        try {
            DiagnosticsClient client = DiagnosticsClient.forProcess(o.pid(), o.tempFolders(), o.timeout());
            // 1. the dump, 2. the snapshot; again when the snapshot does not describe the dump (its GC listed the objects
            // where it moved them): that GC has compacted the heap, so the next one has little left to move
            Path full = work.resolve("full.core");
            Path trace = work.resolve("snapshot.nettrace");
            long fullBytes = 0;
            long traceBytes = 0;
            Duration dumpTime = Duration.ZERO;
            Duration traceTime = Duration.ZERO;
            GcHeapSnapshot snapshot = null;
            for (int attempt = 1; snapshot == null; attempt++) {
                progress.accept(String.format(Locale.ROOT, "dump: asking process %d for a full dump (%s) ...", o.pid(), client.socket()));
                Set<Long> before = children(o.pid());
                long td = System.nanoTime();
                try {
                    client.generateCoreDump(full, DiagnosticsClient.DUMP_TYPE_FULL, o.timeout());
                } finally {
                    killNewChildren(o.pid(), before, progress);
                }
                dumpTime = Duration.ofNanos(System.nanoTime() - td);
                if (!Files.isRegularFile(full)) {
                    throw new DiagnosticsException("the runtime answered GenerateCoreDump but wrote no " + full);
                }
                fullBytes = Files.size(full);
                progress.accept(String.format(Locale.ROOT, "dump: %,d bytes in %.1f s", fullBytes, seconds(dumpTime)));
                // 2. the snapshot
                long tt = System.nanoTime();
                progress.accept("snapshot: EventPipe session with the GC heap dump keywords (the runtime collects and walks its heap) ...");
                try (DiagnosticsClient.TraceSession session = client.collectTracing(256,
                        List.of(new DiagnosticsClient.Provider(RUNTIME_PROVIDER, KEYWORDS, LEVEL_VERBOSE, "")));
                        OutputStream t = new BufferedOutputStream(Files.newOutputStream(trace))) {
                    traceBytes = session.record(t, o.idle(), o.maxTrace());
                }
                Nettrace nettrace;
                try (InputStream in = new BufferedInputStream(Files.newInputStream(trace), 1 << 16)) {
                    nettrace = NettraceReader.read(in);
                }
                GcHeapSnapshot candidate = GcHeapSnapshot.decode(nettrace);
                if (candidate.nodeCount() == 0) {
                    throw new DiagnosticsException("the trace (" + traceBytes + " bytes, " + nettrace.events().size() + " events) holds no GCBulkNode event: the runtime did not walk its heap");
                }
                traceTime = Duration.ofNanos(System.nanoTime() - tt);
                progress.accept(String.format(Locale.ROOT, "snapshot: %,d bytes, %,d events, %,d objects in %.1f s", traceBytes, nettrace.events().size(),
                        candidate.nodeCount(), seconds(traceTime)));
                SnapshotAgreement agreement;
                try (ElfCore dump = ElfCore.open(full)) {
                    agreement = SnapshotAgreement.check(dump, candidate.liveObjects());
                }
                if (agreement.agrees()) {
                    snapshot = candidate;
                } else if (attempt < ATTEMPTS) {
                    progress.accept("snapshot: does not describe the dump: " + agreement.describe()
                            + "; the snapshot's GC moved the objects; taking the dump and the snapshot again");
                    Files.delete(full);
                    Files.delete(trace);
                } else {
                    throw new DiagnosticsException("after " + ATTEMPTS + " attempts the runtime's heap snapshot still does not describe its dump: "
                            + agreement.describe());
                }
            }
            snapshot.write(work);
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
            Files.writeString(work.resolve("info.txt"), String.format(Locale.ROOT,
                    "name: %s%npid: %d%ncaptured by: clrheap capture%ndump: full, trimmed (%s)%nsnapshot: %d objects, %d trace bytes%n",
                    out.getFileName(), o.pid(), trim.describe(), snapshot.nodeCount(), traceBytes));
            // 4. into place
            if (Files.exists(out)) {
                Files.delete(out); // empty, checked above
            }
            try {
                Files.move(work, out, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(work, out);
            }
            moved = true;
            return new Result(out, fullBytes, xzBytes, traceBytes, snapshot.nodeCount(), trim, dumpTime, traceTime, trimTime,
                    Duration.ofNanos(System.nanoTime() - t0));
        } finally {
            if (!moved) {
                FileTrees.deleteTree(work);
            }
        }
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
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
