package io.clrheap.generator.materialize;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;

/**
 * The libc functions the materialize helper places memory with, bound by JNA direct mapping. Each throws
 * {@link LastErrorException} with {@code errno} when it fails. Sources: mmap(2), mprotect(2), open(2), pread(2),
 * {@code <asm-generic/mman-common.h>}, {@code <asm-generic/fcntl.h>}, {@code <asm-generic/errno-base.h>} (x86-64 values).
 */
final class LibC {

    static {
        Native.register(LibC.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
    }

    private LibC() {
    }

    static final int PROT_READ = 0x1;
    static final int PROT_WRITE = 0x2;
    static final int PROT_EXEC = 0x4;
    static final int MAP_PRIVATE = 0x02;
    static final int MAP_ANONYMOUS = 0x20;
    /** Linux 4.17+: like MAP_FIXED, but fails with EEXIST instead of replacing what is mapped there. */
    static final int MAP_FIXED_NOREPLACE = 0x100000;
    static final int O_RDONLY = 0;
    static final int O_CLOEXEC = 0x80000;
    static final int EPERM = 1;
    static final int EINTR = 4;
    static final int EACCES = 13;
    static final int EEXIST = 17;

    /** {@code void *mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset)}. */
    static native Pointer mmap(Pointer address, long length, int prot, int flags, int fd, long offset) throws LastErrorException;

    /** {@code int munmap(void *addr, size_t length)}. */
    static native int munmap(Pointer address, long length) throws LastErrorException;

    /** {@code int mprotect(void *addr, size_t len, int prot)}. */
    static native int mprotect(Pointer address, long length, int prot) throws LastErrorException;

    /** {@code int open(const char *pathname, int flags)} (variadic in glibc; no mode is needed to open for reading). */
    static native int open(String path, int flags) throws LastErrorException;

    /** {@code ssize_t pread(int fd, void *buf, size_t count, off_t offset)}. */
    static native long pread(int fd, Pointer buffer, long count, long offset) throws LastErrorException;

    /** {@code int close(int fd)}. */
    static native int close(int fd) throws LastErrorException;
}
