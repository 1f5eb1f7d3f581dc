package io.clrheap.generator.bundle;

/**
 * One range of process memory in a bundle: {@code length} bytes at {@code start}, stored as the entry {@code entry}.
 *
 * @param start  the first address
 * @param length bytes
 * @param entry  the archive entry holding them
 */
public record BundleRange(long start, long length, String entry) {
}
