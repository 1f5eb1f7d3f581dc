package io.clrheap.walker.heap;

/**
 * Something wrong found by discovery or a walk: what, where (an address, and the region when there is one), what
 * the walker did about it, and (for discovery's problems) the read that caused it.
 *
 * @param kind    what
 * @param address where (0 when no single address applies)
 * @param region  the region it is in, e.g. {@code heap 0 gen0 region [0x…, 0x…)}, or empty
 * @param detail  the values found and how the walk went on
 * @param cause   the read whose value (or missing memory) raised it, or null when no single read did
 */
public record Problem(ProblemKind kind, long address, String region, String detail, FieldRead cause) {

    /** A problem no single read caused (the walk's, and discovery's consistency checks). */
    public Problem(ProblemKind kind, long address, String region, String detail) {
        this(kind, address, region, detail, null);
    }

    /**
     * One line: {@code bad MethodTable at 0x7f…: … [heap 0 gen0 region …]}, then the read that caused it:
     * {@code ; read heap_segment.next at 0x7f… (offset 0x30: profile, dump: E:all)}.
     */
    public String describe() {
        StringBuilder s = new StringBuilder(kind.text());
        if (address != 0) {
            s.append(String.format(" at 0x%x", address));
        }
        s.append(": ").append(detail);
        if (region != null && !region.isEmpty()) {
            s.append(" [").append(region).append(']');
        }
        if (cause != null) {
            s.append("; read ").append(cause.describe());
        }
        return s.toString();
    }

    /** {@link #describe()}, with the kind's name: {@code Problem[BAD_METHOD_TABLE: bad MethodTable at 0x7f…: …]}. */
    @Override
    public String toString() {
        return "Problem[" + kind + ": " + describe() + "]";
    }
}
