package io.clrheap.walker.heap;

/**
 * Something wrong found by discovery or a walk: what, where (an address, and the region when there is one), and
 * what the walker did about it.
 *
 * @param kind    what
 * @param address where (0 when no single address applies)
 * @param region  the region it is in, e.g. {@code heap 0 gen0 region [0x…, 0x…)}, or empty
 * @param detail  the values found and how the walk went on
 */
public record Problem(ProblemKind kind, long address, String region, String detail) {

    /** One line: {@code bad MethodTable at 0x7f…: … [heap 0 gen0 region …]}. */
    public String describe() {
        StringBuilder s = new StringBuilder(kind.text());
        if (address != 0) {
            s.append(String.format(" at 0x%x", address));
        }
        s.append(": ").append(detail);
        if (region != null && !region.isEmpty()) {
            s.append(" [").append(region).append(']');
        }
        return s.toString();
    }
}
