package io.clrheap.capture.nettrace;

/** An event payload shorter than its fields, or with a count past a limit. */
public final class PayloadException extends Exception {

    public PayloadException(String message) {
        super(message);
    }
}
