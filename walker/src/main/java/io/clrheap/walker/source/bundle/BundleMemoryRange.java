package io.clrheap.walker.source.bundle;

/**
 * One range of process memory in a bundle: {@code length} bytes at {@code start}, the bytes of the entry {@code entry}.
 */
public record BundleMemoryRange(long start, long length, String entry) {

    /** The first address past the range. */
    public long end() {
        return start + length;
    }

    @Override
    public String toString() {
        return String.format("[0x%x, 0x%x) %s", start, end(), entry);
    }
}
