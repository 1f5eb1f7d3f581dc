package io.clrheap.walker.source.elf;

/** A thread of the dumped process, from one {@code NT_PRSTATUS} note: its kernel thread id and two registers. */
public record CoreThread(int tid, long rip, long rsp) {

    @Override
    public String toString() {
        return String.format("CoreThread[tid %d, rip 0x%x, rsp 0x%x]", tid, rip, rsp);
    }
}
