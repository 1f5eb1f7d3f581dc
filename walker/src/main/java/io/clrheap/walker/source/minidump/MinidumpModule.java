package io.clrheap.walker.source.minidump;

/**
 * One entry of a minidump's module list (MINIDUMP_MODULE).
 *
 * @param base          BaseOfImage: where the image is mapped
 * @param size          SizeOfImage
 * @param name          its full path, as the module's MINIDUMP_STRING gives it
 * @param timeDateStamp the PE header's TimeDateStamp (unsigned)
 * @param checksum      the PE header's CheckSum (unsigned)
 * @param fileVersion   the file version of its version resource (VersionInfo, a VS_FIXEDFILEINFO: {@code 9.0.725.31616}), or
 *                      empty when the entry holds none (no signature 0xFEEF04BD)
 */
public record MinidumpModule(long base, long size, String name, long timeDateStamp, long checksum, String fileVersion) {

    public MinidumpModule {
        fileVersion = fileVersion == null ? "" : fileVersion;
    }

    /** A module whose entry holds no version resource. */
    public MinidumpModule(long base, long size, String name, long timeDateStamp, long checksum) {
        this(base, size, name, timeDateStamp, checksum, "");
    }

    /** The file name: the part of {@link #name} after the last {@code \} or {@code /}. */
    public String fileName() {
        return name.substring(Math.max(name.lastIndexOf('\\'), name.lastIndexOf('/')) + 1);
    }

    @Override
    public String toString() {
        return String.format("MinidumpModule[%s at 0x%x, 0x%x bytes]", name, base, size);
    }
}
