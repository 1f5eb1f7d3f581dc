package io.clrheap.walker.source.live;

import com.sun.jna.LastErrorException;
import io.clrheap.walker.source.OsThread;
import io.clrheap.walker.source.RegisterSet;
import io.clrheap.walker.source.ThreadSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Every thread of a process stopped with ptrace, for a walk that sees one consistent heap: {@code PTRACE_SEIZE} and
 * {@code PTRACE_INTERRUPT} on each task of {@code /proc/PID/task} (again until no new thread appears), each waited
 * for with {@code waitpid(__WALL)}; {@link #close()} detaches them all ({@code PTRACE_DETACH}), and so does a
 * shutdown hook when the JVM ends first (Ctrl-C). Were this JVM killed outright, the kernel would detach them as
 * its tracing thread exits. Sources: ptrace(2) ("Attaching and detaching", "PTRACE_SEIZE", "PTRACE_INTERRUPT").
 *
 * <p>The kernel accepts ptrace requests for a tracee only from the thread that attached it, so every request is
 * made on one thread of this class's own. A signal that reaches a thread while it is being stopped is delivered
 * to it, not swallowed.
 *
 * <p>A child of this JVM is refused: the JDK's process reaper waits for its children, and the kernel reports a
 * traced child's stops to its parent (the tracer's process) even without {@code WUNTRACED}, so the reaper would take
 * the stop for the child's end (seen: {@code Process.isAlive()} false, and a blocking waitpid here never returning).
 */
public final class ProcessSuspension implements ThreadSource, AutoCloseable {

    /** Rounds of re-reading /proc/PID/task for threads started while the others were being stopped. */
    private static final int MAX_ROUNDS = 100;
    /** Stops of one thread waited through (signal-delivery stops before the interrupt's) before giving up on it. */
    private static final int MAX_STOPS = 64;
    private static final long DETACH_TIMEOUT_SECONDS = 10;
    /** How long one thread may take to reach its stop. */
    private static final long STOP_TIMEOUT_MILLIS = 5_000;

    private final int pid;
    private final ExecutorService tracer;
    /** The attached threads: touched only on the tracer thread. */
    private final Set<Integer> attached = new LinkedHashSet<>();
    private final Thread hook;
    private boolean closed;

    private ProcessSuspension(int pid) {
        this.pid = pid;
        this.tracer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "clrheap-ptrace-" + pid);
            t.setDaemon(true);
            return t;
        });
        this.hook = new Thread(this::close, "clrheap-detach-" + pid);
    }

    /**
     * Stops every thread of process {@code pid}; detaches those already stopped when one cannot be.
     *
     * @throws LiveProcessException NO_SUCH_PROCESS, PERMISSION_DENIED (with the hint), FAILED
     */
    public static ProcessSuspension suspend(int pid) {
        if (!ProcFiles.exists(pid)) {
            throw new LiveProcessException(LiveProcessException.Kind.NO_SUCH_PROCESS, pid, "no such process: " + pid);
        }
        if (pid == ProcessHandle.current().pid()) {
            throw new LiveProcessException(LiveProcessException.Kind.FAILED, pid, "cannot suspend this process itself (" + pid + ")");
        }
        if (Long.toString(ProcessHandle.current().pid()).equals(ProcFiles.status(pid, "PPid"))) {
            throw new LiveProcessException(LiveProcessException.Kind.FAILED, pid, "cannot suspend process " + pid
                    + ": it is a child of this JVM, whose process reaper would take its ptrace stops for its end; start it from another process");
        }
        ProcessSuspension s = new ProcessSuspension(pid);
        Runtime.getRuntime().addShutdownHook(s.hook);
        try {
            s.onTracer(s::attachAll);
        } catch (RuntimeException | Error e) {
            s.close();
            throw e;
        }
        return s;
    }

    public int pid() {
        return pid;
    }

    /** The threads stopped, ascending. */
    public synchronized List<Integer> threads() {
        if (closed) {
            return List.of();
        }
        return onTracer(() -> attached.stream().sorted().toList());
    }

    /** Detaches every stopped thread, which resumes it. Idempotent; also run by the shutdown hook. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            Future<?> detached = tracer.submit(this::detachAll);
            detached.get(DETACH_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // the tracer thread ends with the JVM, and the kernel then detaches what is left
        } finally {
            tracer.shutdown();
            if (Thread.currentThread() != hook) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException e) {
                    // the JVM is shutting down: the hook runs (and finds this closed)
                }
            }
        }
    }

    /**
     * Every stopped thread's registers ({@code PTRACE_GETREGS}, asked on the tracer thread as the kernel wants); a
     * thread that ended meanwhile is left out. The stacks' ends are the process's mappings' (stackBase 0).
     */
    @Override
    public synchronized List<OsThread> osThreads() {
        if (closed) {
            throw new IllegalStateException("process " + pid + " is no longer suspended");
        }
        return onTracer(() -> {
            List<OsThread> found = new ArrayList<>();
            try (com.sun.jna.Memory regs = new com.sun.jna.Memory(LibC.USER_REGS_STRUCT_SIZE)) {
                for (int tid : attached) {
                    try {
                        LibC.ptrace(LibC.PTRACE_GETREGS, tid, null, regs);
                    } catch (LastErrorException e) {
                        continue; // ESRCH: it ended since it was stopped
                    }
                    long[] words = new long[RegisterSet.USER_REGS_WORDS];
                    for (int i = 0; i < words.length; i++) {
                        words[i] = regs.getLong(8L * i);
                    }
                    found.add(new OsThread(tid, RegisterSet.fromUserRegs(words), 0));
                }
            }
            return List.copyOf(found);
        });
    }

    private <T> T onTracer(java.util.concurrent.Callable<T> work) {
        try {
            return tracer.submit(work).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LiveProcessException(LiveProcessException.Kind.FAILED, pid, "interrupted while suspending process " + pid, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new LiveProcessException(LiveProcessException.Kind.FAILED, pid, "suspending process " + pid + " failed: " + e.getCause(), e.getCause());
        }
    }

    private void onTracer(Runnable work) {
        onTracer(() -> {
            work.run();
            return null;
        });
    }

    private void attachAll() {
        Set<Integer> gone = new LinkedHashSet<>();
        for (int round = 0; round < MAX_ROUNDS; round++) {
            List<Integer> fresh = new ArrayList<>();
            for (int tid : ProcFiles.threads(pid)) {
                if (!attached.contains(tid) && !gone.contains(tid)) {
                    fresh.add(tid);
                }
            }
            if (fresh.isEmpty()) {
                if (attached.isEmpty()) {
                    throw LiveProcessException.exited(pid, "before it could be suspended");
                }
                return;
            }
            for (int tid : fresh) {
                if (!seize(tid) || !waitForStop(tid)) {
                    gone.add(tid);
                }
            }
        }
        throw new LiveProcessException(LiveProcessException.Kind.FAILED, pid, String.format(
                "process %d kept starting threads while %d of them were being stopped (%d rounds)", pid, attached.size(), MAX_ROUNDS));
    }

    /** Seizes and interrupts {@code tid}; false when the thread is already gone. */
    private boolean seize(int tid) {
        try {
            LibC.ptrace(LibC.PTRACE_SEIZE, tid, null, null);
        } catch (LastErrorException e) {
            return switch (e.getErrorCode()) {
                case LibC.ESRCH -> false;
                case LibC.EPERM -> throw new LiveProcessException(LiveProcessException.Kind.PERMISSION_DENIED, pid, String.format(
                        "permission denied attaching to thread %d of process %d (%s): %s%s", tid, pid, ProcFiles.command(pid),
                        LiveProcessException.permissionHint(), tracedBy(tid)), e);
                default -> throw new LiveProcessException(LiveProcessException.Kind.FAILED, pid, String.format(
                        "PTRACE_SEIZE of thread %d of process %d failed: errno %d", tid, pid, e.getErrorCode()), e);
            };
        }
        attached.add(tid);
        try {
            LibC.ptrace(LibC.PTRACE_INTERRUPT, tid, null, null);
        } catch (LastErrorException e) {
            if (e.getErrorCode() == LibC.ESRCH) {
                return true; // exited already: waitForStop sees its end
            }
            throw new LiveProcessException(LiveProcessException.Kind.FAILED, pid, String.format(
                    "PTRACE_INTERRUPT of thread %d of process %d failed: errno %d", tid, pid, e.getErrorCode()), e);
        }
        return true;
    }

    private String tracedBy(int tid) {
        String tracer = ProcFiles.taskStatus(pid, tid, "TracerPid");
        return tracer == null || tracer.equals("0") ? "" : " (it is already traced by process " + tracer + ", e.g. a debugger)";
    }

    /**
     * Waits until {@code tid} is in the stop PTRACE_INTERRUPT asked for; a signal that stops it first is passed on to it
     * (PTRACE_CONT with the signal) and the wait goes on. False when the thread ended instead. Polls
     * ({@code WNOHANG}) and gives up after {@value #STOP_TIMEOUT_MILLIS} ms, so that a stop reported elsewhere can never
     * hang the walk; a thread that /proc shows in a tracing stop ({@code t}) is stopped however it was reported.
     */
    private boolean waitForStop(int tid) {
        int[] status = new int[1];
        int signals = 0;
        long deadline = System.nanoTime() + STOP_TIMEOUT_MILLIS * 1_000_000L;
        while (true) {
            int reported;
            try {
                reported = LibC.waitpid(tid, status, LibC.__WALL | LibC.WNOHANG);
            } catch (LastErrorException e) {
                if (e.getErrorCode() == LibC.EINTR) {
                    continue;
                }
                attached.remove(tid);
                if (e.getErrorCode() == LibC.ECHILD) {
                    return false; // gone (reaped elsewhere)
                }
                throw new LiveProcessException(LiveProcessException.Kind.FAILED, pid, String.format(
                        "waitpid for thread %d of process %d failed: errno %d", tid, pid, e.getErrorCode()), e);
            }
            if (reported == 0) {
                String state = ProcFiles.taskStatus(pid, tid, "State");
                if (state == null) {
                    attached.remove(tid);
                    return false; // ended
                }
                if (state.startsWith("t") && System.nanoTime() - deadline > -STOP_TIMEOUT_MILLIS * 1_000_000L / 2) {
                    return true; // stopped for a while and nothing reported to this thread: stopped all the same
                }
                if (System.nanoTime() > deadline) {
                    throw new LiveProcessException(LiveProcessException.Kind.FAILED, pid, String.format(
                            "thread %d of process %d did not stop within %d ms (state %s)", tid, pid, STOP_TIMEOUT_MILLIS, state));
                }
                java.util.concurrent.locks.LockSupport.parkNanos(200_000);
                continue;
            }
            int s = status[0];
            boolean stopped = (s & 0xff) == 0x7f;
            if (!stopped) {
                attached.remove(tid); // exited or killed: nothing to detach
                return false;
            }
            if ((s >>> 16) == LibC.PTRACE_EVENT_STOP) {
                return true;
            }
            if (++signals > MAX_STOPS) {
                throw new LiveProcessException(LiveProcessException.Kind.FAILED, pid, String.format(
                        "thread %d of process %d did not stop after %d signals", tid, pid, MAX_STOPS));
            }
            int signal = (s >>> 8) & 0xff;
            try {
                LibC.ptrace(LibC.PTRACE_CONT, tid, null, new com.sun.jna.Pointer(signal));
            } catch (LastErrorException e) {
                attached.remove(tid);
                return false;
            }
        }
    }

    private void detachAll() {
        for (int tid : attached) {
            try {
                LibC.ptrace(LibC.PTRACE_DETACH, tid, null, null);
            } catch (LastErrorException e) {
                // ESRCH: the thread died while stopped (killed); nothing else can be done for it
            }
        }
        attached.clear();
    }
}
