package io.clrheap.walker.graph;

import io.clrheap.walker.source.Register;

/**
 * Where a stack root was found: a word of a thread's stack at or above its stack pointer, or one of its registers.
 *
 * @param osThreadId      the operating system's thread id
 * @param managedThreadId the runtime's managed thread id ({@code Thread.m_ThreadId})
 * @param address         the stack slot's address; 0 for a register
 * @param register        the register holding it; null for a stack slot
 * @param rsp             the thread's stack pointer when the dump was taken
 * @param value           the word read: the object's address, or an address inside it (an interior pointer)
 */
public record StackSlot(long osThreadId, int managedThreadId, long address, Register register, long rsp, long value) {

    /** How the slot is named: {@code rsp+0x48}, or the register ({@code rbx}). */
    public String location() {
        return register != null ? register.id() : String.format("rsp+0x%x", address - rsp);
    }

    /** The record's components, the addresses in hex (the thread ids in decimal, as {@code ps} and the dump's notes give them). */
    @Override
    public String toString() {
        return String.format("StackSlot[osThreadId=%d, managedThreadId=%d, address=0x%x, register=%s, rsp=0x%x, value=0x%x]",
                osThreadId, managedThreadId, address, register, rsp, value);
    }
}
