package io.clrheap.walker.symbols;

import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The fixed part of a PE image's version resource (type RT_VERSION, name 1): VS_VERSIONINFO is a u16 wLength, a u16
 * wValueLength (52: the size of VS_FIXEDFILEINFO), a u16 wType, the key {@code L"VS_VERSION_INFO"} with its NUL,
 * padding to a 4-byte boundary, then VS_FIXEDFILEINFO: dwSignature 0xFEEF04BD, dwStrucVersion, dwFileVersionMS,
 * dwFileVersionLS, dwProductVersionMS, dwProductVersionLS, … (Microsoft, "VS_VERSIONINFO structure",
 * "VS_FIXEDFILEINFO structure"; {@code VS_FFI_SIGNATURE} and {@code VS_VERSION_INFO 1} in Wine's include/winver.h). The
 * file version is what a minidump's module list also carries (MINIDUMP_MODULE.VersionInfo), and what names a
 * {@code coreclr.dll}'s build: 8.0.3026.36720 is 8.0.30 (docs/reference/windows.md section 6).
 *
 * @param address      where VS_FIXEDFILEINFO is
 * @param fileVersion  the four-part file version, e.g. {@code 8.0.3026.36720}
 * @param productVersion the four-part product version
 */
public record VersionResource(long address, String fileVersion, String productVersion) {

    /** VS_FFI_SIGNATURE. */
    public static final long SIGNATURE = 0xfeef04bdL;
    /** sizeof(VS_FIXEDFILEINFO). */
    public static final int FIXED_FILE_INFO_SIZE = 52;
    /** The name id of the version resource (VS_VERSION_INFO). */
    public static final int NAME = 1;
    private static final String KEY = "VS_VERSION_INFO";
    /** wLength, wValueLength, wType, the key and its NUL. */
    private static final int KEY_END = 6 + 2 * (KEY.length() + 1);
    private static final int FIXED_AT = (KEY_END + 3) & ~3;

    /**
     * The version resource of the image at {@code base}, or empty when it has none, or one without a VS_FIXEDFILEINFO.
     *
     * @throws ModuleFormatException  when the image or its resource directory is corrupt, or the resource is not a
     *                                VS_VERSIONINFO (its address named)
     * @throws MissingMemoryException when bytes on the way are not in the memory
     */
    public static Optional<VersionResource> inMemory(Memory memory, long base) throws ModuleFormatException {
        Optional<PeResourceDirectory> directory = PeResourceDirectory.inMemory(memory, base);
        if (directory.isEmpty()) {
            return Optional.empty();
        }
        Optional<PeResourceDirectory.Resource> resource = directory.get().find(PeResourceDirectory.Key.id(PeResourceDirectory.RT_VERSION),
                PeResourceDirectory.Key.id(NAME));
        if (resource.isEmpty()) {
            return Optional.empty();
        }
        return read(memory, base, resource.get());
    }

    /** The VS_FIXEDFILEINFO of the version resource {@code resource} of the image at {@code base}. */
    static Optional<VersionResource> read(Memory memory, long base, PeResourceDirectory.Resource resource) throws ModuleFormatException {
        long at = resource.address();
        if (resource.size() < FIXED_AT + FIXED_FILE_INFO_SIZE) {
            return Optional.empty();
        }
        byte[] key = memory.readBytes(at + 6, 2 * KEY.length() + 2);
        String found = new String(key, StandardCharsets.UTF_16LE);
        if (!found.equals(KEY + "\0")) {
            throw error(memory, base, at + 6, "the version resource's key is not \"" + KEY + "\"");
        }
        int valueLength = memory.readU16(at + 2);
        if (valueLength < FIXED_FILE_INFO_SIZE) {
            return Optional.empty(); // a version resource without VS_FIXEDFILEINFO
        }
        long fixed = at + FIXED_AT;
        long signature = memory.readU32(fixed);
        if (signature != SIGNATURE) {
            throw error(memory, base, fixed, String.format("VS_FIXEDFILEINFO's signature is 0x%08x, not 0x%08x", signature, SIGNATURE));
        }
        return Optional.of(new VersionResource(fixed, version(memory.readU32(fixed + 8), memory.readU32(fixed + 12)),
                version(memory.readU32(fixed + 16), memory.readU32(fixed + 20))));
    }

    private static String version(long ms, long ls) {
        return (ms >>> 16) + "." + (ms & 0xffff) + "." + (ls >>> 16) + "." + (ls & 0xffff);
    }

    private static ModuleFormatException error(Memory memory, long base, long where, String what) {
        return new ModuleFormatException(String.format("the PE image at 0x%x in %s: %s at 0x%x", base, memory.describe(), what, where));
    }

    /** The record's components, the address in hex. */
    @Override
    public String toString() {
        return String.format("VersionResource[address=0x%x, fileVersion=%s, productVersion=%s]", address, fileVersion, productVersion);
    }
}
