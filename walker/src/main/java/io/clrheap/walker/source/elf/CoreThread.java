package io.clrheap.walker.source.elf;

import io.clrheap.walker.source.RegisterSet;

/** A thread of the dumped process, from one {@code NT_PRSTATUS} note: its kernel thread id and its registers. */
public record CoreThread(int tid, RegisterSet registers) {

    public long rip() {
        return registers.rip();
    }

    public long rsp() {
        return registers.rsp();
    }

    @Override
    public String toString() {
        return String.format("CoreThread[tid %d, rip 0x%x, rsp 0x%x]", tid, rip(), rsp());
    }
}
