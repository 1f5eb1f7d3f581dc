package io.clrheap.walker.source;

import java.util.Locale;

/**
 * The x64 general-purpose registers a thread's context holds, and its instruction pointer: what a conservative root
 * scan reads beside the stack (a JIT-compiled method may keep its only reference to an object in a register).
 */
public enum Register {
    RAX, RBX, RCX, RDX, RSI, RDI, RBP, RSP, R8, R9, R10, R11, R12, R13, R14, R15, RIP;

    /** The lowercase name the disassemblers and SOS print: {@code rbx}, {@code r12}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
