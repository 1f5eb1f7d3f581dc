package io.clrheap.layout;

/** A profile lacks something a caller asked for (a structure, field, constant), or a view cannot be bound. */
public class LayoutException extends RuntimeException {

    public LayoutException(String message) {
        super(message);
    }

    public LayoutException(String message, Throwable cause) {
        super(message, cause);
    }
}
