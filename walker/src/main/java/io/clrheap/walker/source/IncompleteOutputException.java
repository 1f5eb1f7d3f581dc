package io.clrheap.walker.source;

import java.io.IOException;

/**
 * Writing an output failed and what was written of it was removed: the message is the failure's and names what was
 * removed, in one line ({@code No space left on device (removed the incomplete big/large-net8-server.core)}).
 */
public final class IncompleteOutputException extends IOException {

    private final String reason;

    /**
     * @param removed what was removed, as the user knows it (the output's final name)
     * @param failure what stopped the writing; when it is itself an {@code IncompleteOutputException} (a writer inside
     *                a {@link PendingFolder}), its reason is kept and what it removed is replaced by {@code removed}
     */
    public IncompleteOutputException(String removed, Throwable failure) {
        this(reasonOf(failure), removed, failure);
    }

    private IncompleteOutputException(String reason, String removed, Throwable failure) {
        super(reason + " (removed the incomplete " + removed + ")", failure);
        this.reason = reason;
    }

    /** What stopped the writing, without what was removed. */
    public String reason() {
        return reason;
    }

    private static String reasonOf(Throwable failure) {
        if (failure instanceof IncompleteOutputException inner) {
            return inner.reason();
        }
        if (failure instanceof IllegalArgumentException && failure.getCause() != null && "Self-suppression not permitted".equals(failure.getMessage())) {
            // a stream that rethrows its first failure on close (XZOutputStream), in try-with-resources: that failure is the reason
            return reasonOf(failure.getCause());
        }
        String message = failure.getMessage();
        if (message == null || message.isBlank()) {
            return failure.getClass().getSimpleName();
        }
        return message.lines().findFirst().orElse(message); // one line, whatever the failure
    }
}
