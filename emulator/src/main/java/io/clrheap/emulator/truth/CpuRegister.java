package io.clrheap.emulator.truth;

import java.util.Locale;

/**
 * The x64 general-purpose registers and the instruction pointer an emulated thread's context holds, in the order the
 * answer key lists a thread's register roots (docs/answer-key.md, roots.tsv): rax, rbx, rcx, rdx, rsi, rdi, rbp, rsp,
 * r8 to r15, rip. The emulator's own list, not the walker's: the two are checked against each other, not shared.
 */
public enum CpuRegister {
    RAX, RBX, RCX, RDX, RSI, RDI, RBP, RSP, R8, R9, R10, R11, R12, R13, R14, R15, RIP;

    /** The lowercase name disassemblers and SOS print, and roots.tsv's root column holds: {@code rbx}, {@code r12}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether a conservative scan reads it as a possible reference: every general-purpose register but rsp (and not rip). */
    public boolean scanned() {
        return this != RSP && this != RIP;
    }
}
