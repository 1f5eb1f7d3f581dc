package io.clrheap.walker.source.live;

/**
 * A live process cannot be read or suspended. The kind says why and decides the command line's exit code; the message
 * names the process and, for a permission problem, what to change.
 */
public final class LiveProcessException extends RuntimeException {

    /** Why. */
    public enum Kind {
        /** No process has this id (or it is gone before it could be opened). */
        NO_SUCH_PROCESS,
        /** The kernel refused to let this process read or trace it. */
        PERMISSION_DENIED,
        /** The process exited while it was being read: a read failed with ESRCH. */
        EXITED,
        /** Something else went wrong (an unexpected errno, an unreadable /proc file, too many entries). */
        FAILED
    }

    private final Kind kind;
    private final int pid;

    public LiveProcessException(Kind kind, int pid, String message) {
        super(message);
        this.kind = kind;
        this.pid = pid;
    }

    public LiveProcessException(Kind kind, int pid, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.pid = pid;
    }

    public Kind kind() {
        return kind;
    }

    public int pid() {
        return pid;
    }

    /** The hint that goes with a refused read or attach. */
    static String permissionHint() {
        String scope = ProcFiles.yamaPtraceScope();
        return "reading another process needs ptrace rights: the same user and /proc/sys/kernel/yama/ptrace_scope 0"
                + (scope == null ? " (no Yama here)" : " (it is " + scope + ")")
                + ", or CAP_SYS_PTRACE (run as root, or setcap cap_sys_ptrace+ep on the java binary; in a container, --cap-add=SYS_PTRACE)";
    }

    static LiveProcessException exited(int pid, String during) {
        return new LiveProcessException(Kind.EXITED, pid, "process " + pid + " exited " + during);
    }
}
