package io.clrheap.walker.source;

/**
 * A thread of the process as the operating system knew it when the dump was taken: its id, its registers, and where
 * its stack ends, when the dump says.
 *
 * @param osId      the operating system's thread id (Linux: the task id, NT_PRSTATUS {@code pr_pid}; Windows: the
 *                  thread id of MINIDUMP_THREAD)
 * @param registers its general-purpose registers and instruction pointer
 * @param stackBase the highest address of its stack, exclusive (Windows: the TEB's {@code NT_TIB.StackBase}), or 0 when
 *                  the dump does not say (an ELF core: the end of the memory range holding {@code rsp} is used)
 */
public record OsThread(long osId, RegisterSet registers, long stackBase) {

    /** The record's components, the stack's end in hex (the thread id in decimal). */
    @Override
    public String toString() {
        return String.format("OsThread[osId=%d, registers=%s, stackBase=0x%x]", osId, registers, stackBase);
    }
}
