package io.clrheap.walker.source.bundle;

/**
 * Caps on what a bundle may declare, checked against its manifest before anything is extracted, so that a corrupt or
 * hostile bundle gives a {@link io.clrheap.walker.source.DumpFormatException} instead of filling the disk or the
 * Java heap. Decompression itself stops as soon as the archive runs past what the manifest declares.
 *
 * @param maxEntries        entries besides the manifest (one per memory range, answer file, type names), and file
 *                          mappings
 * @param maxEntryBytes     bytes of any one entry
 * @param maxTotalBytes     bytes of all entries together: the temporary file the memory is extracted to is at most
 *                          this big
 * @param maxManifestBytes  bytes of {@code manifest.json}, which is read onto the Java heap
 * @param maxTypeNamesBytes bytes of {@code type-names.txt}, which is parsed onto the Java heap
 */
public record BundleLimits(int maxEntries, long maxEntryBytes, long maxTotalBytes, int maxManifestBytes,
                           int maxTypeNamesBytes) {

    /**
     * Enough for any fixture clrheap writes: 100,000 entries, 16 GiB in all, a 64 MiB manifest and 64 MiB of type names.
     * 16 GiB is the process memory one emulated build may write by default (the generator's build budget, docs/fixtures.md,
     * "Generating fixture dumps"): a bundle declaring more was not written by it, and is refused from its manifest
     * instead of being streamed for minutes before its digest fails. A bigger build's bundle opens with limits of its own.
     */
    public static final BundleLimits DEFAULT = new BundleLimits(100_000, 16L << 30, 16L << 30, 64 << 20, 64 << 20);

    public BundleLimits {
        if (maxEntries <= 0 || maxEntryBytes <= 0 || maxTotalBytes <= 0 || maxManifestBytes <= 0 || maxTypeNamesBytes <= 0) {
            throw new IllegalArgumentException(String.format("every limit must be positive: maxEntries %d, maxEntryBytes %d, "
                    + "maxTotalBytes %d, maxManifestBytes %d, maxTypeNamesBytes %d", maxEntries, maxEntryBytes,
                    maxTotalBytes, maxManifestBytes, maxTypeNamesBytes));
        }
    }
}
