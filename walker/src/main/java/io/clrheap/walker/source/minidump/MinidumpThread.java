package io.clrheap.walker.source.minidump;

import java.util.OptionalLong;

/**
 * One entry of a minidump's thread list (MINIDUMP_THREAD), with the instruction and stack pointers of its AMD64
 * CONTEXT when it has one.
 *
 * @param threadId   the operating system's thread id (unsigned)
 * @param teb        the address of its thread environment block
 * @param stackStart the start of the stack memory the dump holds for it
 * @param stackSize  that memory's size in bytes
 * @param rip        CONTEXT.Rip, when the thread has a context of at least the AMD64 control registers
 * @param rsp        CONTEXT.Rsp, likewise
 */
public record MinidumpThread(long threadId, long teb, long stackStart, long stackSize, OptionalLong rip, OptionalLong rsp) {
}
