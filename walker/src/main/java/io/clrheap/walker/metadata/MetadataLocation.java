package io.clrheap.walker.metadata;

/**
 * Where an image's metadata root ({@code BSJB}) was found.
 *
 * @param imageBase the PE image's {@code MZ} address
 * @param kind      how the image lies in memory
 * @param root      the metadata root's address
 * @param size      the metadata's size from the CLI header
 */
public record MetadataLocation(long imageBase, ImageLayoutKind kind, long root, long size) {
}
