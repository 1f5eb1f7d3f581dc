package io.clrheap.walker.source;

import java.util.Arrays;
import java.util.Objects;

/** The values of one thread's {@link Register}s, as its dump recorded them (immutable). */
public final class RegisterSet {

    private final long[] values;

    private RegisterSet(long[] values) {
        this.values = values;
    }

    /** A set from values in {@link Register} order ({@code Register.values().length} of them). */
    public static RegisterSet of(long... values) {
        if (values.length != Register.values().length) {
            throw new IllegalArgumentException("a register set has " + Register.values().length + " values, not " + values.length);
        }
        return new RegisterSet(values.clone());
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
