package io.clrheap.walker.source.minidump;

/**
 * One entry of a minidump's module list (MINIDUMP_MODULE).
 *
 * @param base          BaseOfImage: where the image is mapped
 * @param size          SizeOfImage
 * @param name          its full path, as the module's MINIDUMP_STRING gives it
 * @param timeDateStamp the PE header's TimeDateStamp (unsigned)
 * @param checksum      the PE header's CheckSum (unsigned)
 */
public record MinidumpModule(long base, long size, String name, long timeDateStamp, long checksum) {

    /** The file name: the part of {@link #name} after the last {@code \} or {@code /}. */
    public String fileName() {
        return name.substring(Math.max(name.lastIndexOf('\\'), name.lastIndexOf('/')) + 1);
    }

    @Override
    public String toString() {
        return String.format("MinidumpModule[%s at 0x%x, 0x%x bytes]", name, base, size);
    }
}
