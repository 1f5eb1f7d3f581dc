package io.clrheap.walker.fields;

/** A class's fields cannot be read as laid out: the message names the structure, its address and what is wrong. */
public final class FieldLayoutException extends RuntimeException {

    private final long address;

    public FieldLayoutException(long address, String message) {
        super(message);
        this.address = address;
    }

    /** Where the wrong value was read. */
    public long address() {
        return address;
    }
}
