package io.clrheap.capture;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Watches the child processes a runtime starts to write a dump, while the capture waits for its answer to
 * GenerateCoreDump. The single-file hosts fork and run their linked-in createdump in the fork, without exec: in a
 * busy, multi-threaded process the fork can inherit a lock that another thread held at the fork, and then waits on it
 * for ever (seen on 10.0.9 server GC: one thread asleep in {@code futex_do_wait}, no CPU time used, no byte written).
 * A child that neither uses CPU time nor grows the dump for {@link #STALL} is ended, so that the runtime answers
 * at once and the capture can dump again instead of waiting out the whole timeout.
 */
final class CreatedumpWatch implements AutoCloseable {

    /** How long a dump child may make no progress at all (no CPU time, no byte written) before it is ended. */
    static final Duration STALL = Duration.ofSeconds(6);
    private static final long POLL_MILLIS = 250;

    private final long pid;
    private final Set<Long> before;
    private final Path file;
    private final Duration stall;
    private final Thread thread;
    private final Map<Long, Progress> progress = new HashMap<>();
    private final List<Long> ended = new ArrayList<>();
    private volatile boolean stop;

    /** What a child had done when last seen, and since when. */
    private record Progress(long cpuTicks, long fileBytes, long sinceNanos) {
    }

    private CreatedumpWatch(long pid, Set<Long> before, Path file, Duration stall) {
        this.pid = pid;
        this.before = before;
        this.file = file;
        this.stall = stall;
        this.thread = Thread.ofPlatform().daemon().name("createdump-watch-" + pid).unstarted(this::run);
    }

    /** Starts watching the children of {@code pid} that are not in {@code before}; {@code file} is the dump they write. */
    static CreatedumpWatch start(long pid, Set<Long> before, Path file) {
        return start(pid, before, file, STALL);
    }

    /** As {@link #start(long, Set, Path)}, a child ended after {@code stall} without progress. */
    static CreatedumpWatch start(long pid, Set<Long> before, Path file, Duration stall) {
        CreatedumpWatch w = new CreatedumpWatch(pid, before, file, stall);
        w.thread.start();
        return w;
    }

    /** The children ended for making no progress (their pids), once the watch is closed. */
    synchronized List<Long> ended() {
        return List.copyOf(ended);
    }

    private void run() {
        while (!stop) {
            long now = System.nanoTime();
            long bytes = fileBytes();
            ProcessHandle.of(pid).ifPresent(p -> p.children().filter(c -> !before.contains(c.pid())).forEach(c -> check(c, bytes, now)));
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void check(ProcessHandle child, long bytes, long now) {
        long ticks = cpuTicks(child.pid());
        Progress last = progress.get(child.pid());
        if (last == null || last.cpuTicks() != ticks || last.fileBytes() != bytes) {
            progress.put(child.pid(), new Progress(ticks, bytes, now));
            return;
        }
        if (now - last.sinceNanos() >= stall.toNanos() && child.destroyForcibly()) {
            synchronized (this) {
                ended.add(child.pid());
            }
            progress.remove(child.pid());
        }
    }

    private long fileBytes() {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return -1;
        }
    }

    /** utime + stime of {@code /proc/PID/stat} (fields 14 and 15), -1 when it cannot be read. */
    static long cpuTicks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // the command name (field 2) is in parentheses and may hold spaces: count the fields after its ')'
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    @Override
    public void close() {
        stop = true;
        thread.interrupt();
        try {
            thread.join(Duration.ofSeconds(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
