package io.clrheap.walker.metadata;

/**
 * ECMA-335 metadata (or the PE image around it) that is not what the format allows: a bad signature, a count or
 * index out of range, an unterminated string. Carries the address of the offending bytes; callers of
 * {@link MethodTableNames} never see it, they get a {@link TypeNameLookup.Unnamed} naming the address.
 */
public final class MetadataFormatException extends RuntimeException {

    private final long address;

    public MetadataFormatException(long address, String message) {
        super(String.format("%s (at 0x%x)", message, address));
        this.address = address;
    }

    public long address() {
        return address;
    }
}
