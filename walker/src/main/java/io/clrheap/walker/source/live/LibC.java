package io.clrheap.walker.source.live;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;

/**
 * The few libc functions a live process is read and suspended with, bound by JNA direct mapping (a native method per
 * function, no proxy). Each one throws {@link LastErrorException} carrying {@code errno} when it fails.
 * Sources: process_vm_readv(2), ptrace(2), waitpid(2), {@code <linux/ptrace.h>}, {@code <asm-generic/errno-base.h>}.
 */
final class LibC {

    static {
        Native.register(LibC.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
    }

    private LibC() {
    }

    static final int EPERM = 1;
    static final int ESRCH = 3;
    static final int EINTR = 4;
    static final int EFAULT = 14;
    static final int ECHILD = 10;
    static final int ENOMEM = 12;

    static final int PTRACE_CONT = 7;
    /** Copies the tracee's struct user_regs_struct (27 words on x86-64) to data. */
    static final int PTRACE_GETREGS = 12;
    static final int USER_REGS_STRUCT_SIZE = 27 * 8;
    static final int PTRACE_DETACH = 17;
    static final int PTRACE_SEIZE = 0x4206;
    static final int PTRACE_INTERRUPT = 0x4207;
    /** waitpid's status {@code >> 16} for the stop PTRACE_INTERRUPT causes (and for group-stops of seized tracees). */
    static final int PTRACE_EVENT_STOP = 128;

    /** waitpid option: wait for every kind of child, threads (clones) included. */
    static final int __WALL = 0x40000000;
    static final int WNOHANG = 1;

    /**
     * {@code ssize_t process_vm_readv(pid_t, const struct iovec *local, unsigned long, const struct iovec *remote,
     * unsigned long, unsigned long flags)}: copies from the remote process into local buffers; returns the bytes
     * copied, fewer than asked when a remote page is not readable (the copy stops there).
     */
    static native long process_vm_readv(int pid, Pointer localIov, long localCount, Pointer remoteIov, long remoteCount,
                                        long flags) throws LastErrorException;

    /** {@code long ptrace(enum __ptrace_request, pid_t, void *addr, void *data)} (variadic in glibc; all integer class on x86-64). */
    static native long ptrace(int request, int pid, Pointer address, Pointer data) throws LastErrorException;

    /** {@code pid_t waitpid(pid_t, int *status, int options)}. */
    static native int waitpid(int pid, int[] status, int options) throws LastErrorException;
}
