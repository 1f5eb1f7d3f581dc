package io.clrheap.walker.source;

import java.util.Arrays;
import java.util.Objects;

/** The values of one thread's {@link Register}s, as its dump recorded them (immutable). */
public final class RegisterSet {

    private final long[] values;

    private RegisterSet(long[] values) {
        this.values = values;
    }

    /**
     * Where each {@link Register} is in x86-64 {@code struct user_regs_struct} (sys/user.h; an ELF core's
     * {@code NT_PRSTATUS pr_reg}, ptrace's {@code PTRACE_GETREGS}): r15 r14 r13 r12 rbp rbx r11 r10 r9 r8 rax rcx rdx rsi
     * rdi orig_rax rip cs eflags rsp ss fs_base gs_base ds es fs gs.
     */
    private static final Register[] USER_REGS = {Register.R15, Register.R14, Register.R13, Register.R12, Register.RBP, Register.RBX,
        Register.R11, Register.R10, Register.R9, Register.R8, Register.RAX, Register.RCX, Register.RDX, Register.RSI, Register.RDI, null,
        Register.RIP, null, null, Register.RSP};

    /** The words of a {@code user_regs_struct} this set reads: its first 20 (through rsp). */
    public static final int USER_REGS_WORDS = USER_REGS.length;

    /** A set from the first {@link #USER_REGS_WORDS} words of a {@code user_regs_struct}. */
    public static RegisterSet fromUserRegs(long[] userRegs) {
        if (userRegs.length < USER_REGS_WORDS) {
            throw new IllegalArgumentException("a user_regs_struct has at least " + USER_REGS_WORDS + " words, not " + userRegs.length);
        }
        long[] values = new long[Register.values().length];
        for (int i = 0; i < USER_REGS.length; i++) {
            if (USER_REGS[i] != null) {
                values[USER_REGS[i].ordinal()] = userRegs[i];
            }
        }
        return new RegisterSet(values);
    }

    public long get(Register register) {
        return values[register.ordinal()];
    }

    public long rsp() {
        return get(Register.RSP);
    }

    public long rip() {
        return get(Register.RIP);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RegisterSet r && Arrays.equals(values, r.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("RegisterSet[");
        for (Register r : Register.values()) {
            s.append(r == Register.RAX ? "" : ", ").append(r.id()).append(String.format(" 0x%x", get(r)));
        }
        return s.append(']').toString();
    }

    /** Builds a set register by register; the ones not set are 0. */
    public static final class Builder {
        private final long[] values = new long[Register.values().length];

        public Builder set(Register register, long value) {
            values[Objects.requireNonNull(register).ordinal()] = value;
            return this;
        }

        public RegisterSet build() {
            return new RegisterSet(values.clone());
        }
    }
}
