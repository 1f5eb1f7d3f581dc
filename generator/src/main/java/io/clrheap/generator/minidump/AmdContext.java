package io.clrheap.generator.minidump;

import io.clrheap.emulator.truth.CpuRegister;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;

/**
 * The Windows AMD64 {@code CONTEXT} record of a thread (1232 = 0x4D0 bytes; offsets from docs/reference/dump-formats.md section 3.5,
 * read from mingw-w64's winnt.h): control, integer and floating-point state, with the segment selectors, flags and
 * MXCSR a user-mode thread of a 64-bit Windows process has.
 */
final class AmdContext {

    static final int SIZE = 0x4d0;
    /** CONTEXT_AMD64 | CONTEXT_CONTROL | CONTEXT_INTEGER | CONTEXT_FLOATING_POINT. */
    static final int FLAGS = 0x0010_000b;
    private static final int CONTEXT_FLAGS = 0x30;
    private static final int MX_CSR = 0x34;
    private static final int SEG_CS = 0x38;
    private static final int EFLAGS = 0x44;
    /** Rax, the first integer register; Rcx, Rdx, Rbx, Rsp, Rbp, Rsi, Rdi, R8 to R15 follow, 8 bytes each, then Rip (0xf8). */
    private static final int RAX = 0x78;
    /** The integer registers in CONTEXT order (winnt.h), from {@link #RAX} on. */
    private static final CpuRegister[] INTEGER_ORDER = {CpuRegister.RAX, CpuRegister.RCX, CpuRegister.RDX, CpuRegister.RBX, CpuRegister.RSP,
        CpuRegister.RBP, CpuRegister.RSI, CpuRegister.RDI, CpuRegister.R8, CpuRegister.R9, CpuRegister.R10, CpuRegister.R11, CpuRegister.R12,
        CpuRegister.R13, CpuRegister.R14, CpuRegister.R15, CpuRegister.RIP};
    private static final int FLT_SAVE = 0x100;
    /** MXCSR at reset: every exception masked. */
    private static final int MXCSR_DEFAULT = 0x1f80;

    private AmdContext() {
    }

    /** A context holding {@code registers}: every integer register and rip. */
    static byte[] of(Map<CpuRegister, Long> registers) {
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(CONTEXT_FLAGS, FLAGS);
        b.putInt(MX_CSR, MXCSR_DEFAULT);
        // SegCs, SegDs, SegEs, SegFs, SegGs, SegSs: the selectors of 64-bit user mode on Windows
        short[] selectors = {0x33, 0x2b, 0x2b, 0x53, 0x2b, 0x2b};
        for (int i = 0; i < selectors.length; i++) {
            b.putShort(SEG_CS + 2 * i, selectors[i]);
        }
        b.putInt(EFLAGS, 0x246); // IF, ZF, PF and the always-one bit
        for (int i = 0; i < INTEGER_ORDER.length; i++) {
            b.putLong(RAX + 8 * i, registers.get(INTEGER_ORDER[i]));
        }
        // XMM_SAVE_AREA32: the x87 control word at reset, MxCsr and MxCsr_Mask
        b.putShort(FLT_SAVE, (short) 0x27f);
        b.putInt(FLT_SAVE + 0x18, MXCSR_DEFAULT);
        b.putInt(FLT_SAVE + 0x1c, 0xffff);
        return b.array();
    }
}
