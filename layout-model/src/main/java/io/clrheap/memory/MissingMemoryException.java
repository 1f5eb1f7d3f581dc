package io.clrheap.memory;

/**
 * A read touched bytes a memory source does not have. Carries the address, so that a caller can report
 * exactly where a pointer chase left the known memory.
 */
public final class MissingMemoryException extends RuntimeException {

    /** Why the bytes are missing. */
    public enum Reason {
        /** No range of the source covers the address. */
        NOT_MAPPED("not mapped"),
        /** The range is known (e.g. an ELF PT_LOAD header) but its bytes were not captured in the dump. */
        NOT_CAPTURED("mapped but not captured in the dump");

        private final String text;

        Reason(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    private final long address;
    private final long length;
    private final String source;
    private final Reason reason;

    public MissingMemoryException(long address, long length, String source, Reason reason) {
        super(String.format("%d bytes at 0x%x are not in %s: %s", length, address, source, reason.text()));
        this.address = address;
        this.length = length;
        this.source = source;
        this.reason = reason;
    }

    public long address() {
        return address;
    }

    public long length() {
        return length;
    }

    public String source() {
        return source;
    }

    public Reason reason() {
        return reason;
    }
}
