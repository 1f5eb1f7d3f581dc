package io.clrheap.emulator.truth;

/**
 * A reference an emulated thread holds in its live stack or in a register: what a conservative scan of that thread
 * must report (docs/answer-key.md, roots.tsv's {@code stack} rows).
 *
 * @param osId     the thread's operating-system id
 * @param slot     the stack slot holding it, or 0 for a register
 * @param register the register holding it, or null for a stack slot
 * @param value    the word itself: the object's start, or an address inside it
 * @param object   the start of the object {@code value} points at or into
 */
public record StackRoot(long osId, long slot, CpuRegister register, long value, long object) {

    /** Whether {@code value} points inside the object rather than at its start. */
    public boolean interior() {
        return value != object;
    }

    /** roots.tsv's root column: the slot as {@code 0x} hex, or the register's name. */
    public String root() {
        return register == null ? "0x" + Long.toHexString(slot) : register.id();
    }
}
