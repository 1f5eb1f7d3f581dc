package io.clrheap.walker.source.minidump;

import io.clrheap.walker.source.RegisterSet;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One entry of a minidump's thread list (MINIDUMP_THREAD), with the registers of its AMD64 CONTEXT when it has one.
 *
 * @param threadId   the operating system's thread id (unsigned)
 * @param teb        the address of its thread environment block
 * @param stackStart the start of the stack memory the dump holds for it
 * @param stackSize  that memory's size in bytes
 * @param registers  the integer and control registers of its CONTEXT, when the context is large enough to hold them
 */
public record MinidumpThread(long threadId, long teb, long stackStart, long stackSize, Optional<RegisterSet> registers) {

    /** CONTEXT.Rip, when the thread has a context. */
    public OptionalLong rip() {
        return registers.map(r -> OptionalLong.of(r.rip())).orElse(OptionalLong.empty());
    }

    /** CONTEXT.Rsp, likewise. */
    public OptionalLong rsp() {
        return registers.map(r -> OptionalLong.of(r.rsp())).orElse(OptionalLong.empty());
    }

    /** The record's components, the addresses in hex (the thread id in decimal). */
    @Override
    public String toString() {
        return String.format("MinidumpThread[threadId=%d, teb=0x%x, stackStart=0x%x, stackSize=0x%x, registers=%s]", threadId, teb, stackStart, stackSize, registers);
    }
}
