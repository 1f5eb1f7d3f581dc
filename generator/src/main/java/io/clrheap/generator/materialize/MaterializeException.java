package io.clrheap.generator.materialize;

/** The helper process could not place the emulated memory; the kind says why, the message what and where. */
public final class MaterializeException extends Exception {

    /** Why. */
    public enum Kind {
        /** An address the emulated process uses is taken in the helper (by the JVM's own memory), in every attempt. */
        ADDRESS_TAKEN,
        /** JNA (its classes or its native library) is not available: nothing can be mapped at a fixed address. */
        NO_JNA,
        /** Anything else: the helper did not start, did not get ready in time, or failed placing the memory. */
        FAILED
    }

    private final Kind kind;

    public MaterializeException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public MaterializeException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
