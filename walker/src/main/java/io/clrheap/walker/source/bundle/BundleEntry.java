package io.clrheap.walker.source.bundle;

/**
 * One entry of a bundle besides its manifest, as the manifest lists it.
 *
 * @param name   the path in the archive, e.g. {@code memory/00007f0000000000.bin}, {@code answer/objects.tsv}
 * @param size   bytes
 * @param sha256 the SHA-256 digest of the bytes, 64 lowercase hex digits
 */
public record BundleEntry(String name, long size, String sha256) {
}
