package io.clrheap.walker.source.live;

/**
 * One line of {@code /proc/PID/maps}: {@code [start, end)} with permissions {@code rwxp}/{@code rwxs}, mapped from
 * byte {@code offset} of {@code path} (empty for anonymous memory; {@code [heap]}, {@code [stack]}, … for the
 * kernel's names; a deleted file's path without the kernel's {@code " (deleted)"}). Source: proc_pid_maps(5).
 */
public record Mapping(long start, long end, String permissions, long offset, String path) {

    public boolean readable() {
        return permissions.charAt(0) == 'r';
    }

    /** A mapping of a file (its path starts with {@code /}), as the NT_FILE note of a core lists them. */
    public boolean fileBacked() {
        return path.startsWith("/");
    }

    /**
     * Kernel pages that process_vm_readv cannot read although maps shows them readable ({@code [vvar]},
     * {@code [vvar_vclock]}, {@code [vsyscall]}): not part of the process's memory for a walker.
     */
    boolean kernelSpecial() {
        return path.startsWith("[vvar") || path.equals("[vsyscall]");
    }

    @Override
    public String toString() {
        return String.format("%x-%x %s %x %s", start, end, permissions, offset, path);
    }
}
