package io.clrheap.walker.runtime;

/**
 * A dump cannot be opened as a target: it is not a supported runtime build, or something discovery needs is not
 * in it. The kind decides the command line's exit code.
 */
public final class TargetException extends Exception {

    /** Why the target cannot be opened. */
    public enum Kind {
        /** The runtime module's ELF headers are not in the dump; the binary must be supplied. */
        MODULE_HEADERS_MISSING,
        /** No mapped module exports {@code g_dacTable}: not a .NET process, or not CoreCLR. */
        NOT_A_RUNTIME,
        /** A CoreCLR build clrheap has no profile for (or whose profile does not validate on the dump). */
        UNSUPPORTED_BUILD,
        /** A structure discovery needs is unreadable or inconsistent. */
        INCONSISTENT
    }

    private final Kind kind;

    public TargetException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public TargetException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
