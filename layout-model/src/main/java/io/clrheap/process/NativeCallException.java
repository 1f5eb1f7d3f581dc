package io.clrheap.process;

/** A native call that cannot be made: no code the process can run at the address, or a bad argument. */
public final class NativeCallException extends RuntimeException {

    private final long address;

    public NativeCallException(long address, String message) {
        super(String.format("0x%x: %s", address, message));
        this.address = address;
    }

    /** The function, or the argument, the call failed at. */
    public long address() {
        return address;
    }
}
