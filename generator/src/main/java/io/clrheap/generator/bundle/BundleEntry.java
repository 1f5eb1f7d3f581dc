package io.clrheap.generator.bundle;

/**
 * One entry of a bundle other than {@code manifest.json}, as the manifest lists it.
 *
 * @param name   the entry's path in the archive, e.g. {@code memory/00007f0000000000.bin}
 * @param size   its length in bytes
 * @param sha256 the SHA-256 digest of its bytes, 64 lowercase hex digits
 */
public record BundleEntry(String name, long size, String sha256) {
}
