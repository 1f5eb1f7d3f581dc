package io.clrheap.walker.metadata;

/**
 * What {@link MethodTableNames} found for one runtime Module: its metadata, or why it has none.
 *
 * @param module   the Module's address
 * @param file     the file name of its image ({@code PEImage.m_path}'s last part), empty when it cannot be read
 * @param location where its metadata is, or null when none was found
 * @param address  when {@code location} is null, the address that was missing or corrupt
 * @param problem  when {@code location} is null, what was wrong (e.g. {@code 8 bytes at 0x… are not in core: …})
 * @param corrupt  when {@code location} is null: the image is in the dump but its headers or metadata are corrupt
 *                 (not merely missing, as in a trimmed dump)
 */
public record ModuleMetadata(long module, String file, MetadataLocation location, long address, String problem, boolean corrupt) {

    public boolean found() {
        return location != null;
    }
}
