package io.clrheap.emulator.module;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The resource directory of the emulated {@code coreclr.dll}: one resource, the version resource (type RT_VERSION 16,
 * name 1, language 0x409), whose data is a VS_VERSIONINFO holding the build's VS_FIXEDFILEINFO and no StringFileInfo or
 * VarFileInfo children. Facts: Microsoft "PE Format", ".rsrc Section" (a three-level tree of IMAGE_RESOURCE_DIRECTORY,
 * 16 bytes, each followed by its 8-byte entries; bit 31 of an entry's second DWORD marks a subdirectory; offsets from the
 * directory's start, except a data entry's OffsetToData, an image RVA); "VS_VERSIONINFO structure", "VS_FIXEDFILEINFO
 * structure"; docs/reference/windows.md section 6. The real coreclr.dll has a version resource (its CMakeLists sets
 * {@code FX_VER_INTERNALNAME_STR=CoreCLR.dll} for it) and besides it {@code CLRDEBUGINFOWINDOWSAMD64}, which the
 * emulated one leaves out; the language 0x409 (U.S. English) is an assumption, not read from a real image.
 */
final class PeResources {

    /** RT_VERSION. */
    static final int RT_VERSION = 16;
    /** VS_VERSION_INFO: the version resource's name id. */
    static final int VERSION_NAME = 1;
    static final int LANGUAGE = 0x409;
    private static final int DIRECTORY = 16;
    private static final int ENTRY = 8;
    private static final int DATA_ENTRY = 16;
    private static final int SUBDIRECTORY = 0x8000_0000;
    /** sizeof(VS_FIXEDFILEINFO). */
    private static final int FIXED_FILE_INFO = 52;
    private static final byte[] KEY = "VS_VERSION_INFO\0".getBytes(StandardCharsets.UTF_16LE);
    /** wLength, wValueLength, wType, the key, padded to a 4-byte boundary: where VS_FIXEDFILEINFO starts. */
    private static final int FIXED_AT = (6 + KEY.length + 3) & ~3;
    private static final int VERSION_INFO = FIXED_AT + FIXED_FILE_INFO;

    private PeResources() {
    }

    /** The resource directory's bytes, laid out to start at image RVA {@code rva}. */
    static byte[] version(long rva, FileVersion version) {
        int names = DIRECTORY + ENTRY;
        int languages = names + DIRECTORY + ENTRY;
        int dataEntry = languages + DIRECTORY + ENTRY;
        int data = dataEntry + DATA_ENTRY;
        ByteBuffer b = ByteBuffer.allocate(data + VERSION_INFO).order(ByteOrder.LITTLE_ENDIAN);
        directory(b, 0, RT_VERSION, SUBDIRECTORY | names);
        directory(b, names, VERSION_NAME, SUBDIRECTORY | languages);
        directory(b, languages, LANGUAGE, dataEntry);
        b.putInt(dataEntry, Math.toIntExact(rva + data)).putInt(dataEntry + 4, VERSION_INFO); // OffsetToData (an RVA), Size; CodePage 0
        b.putShort(data, (short) VERSION_INFO).putShort(data + 2, (short) FIXED_FILE_INFO).putShort(data + 4, (short) 0); // wType 0: binary
        b.put(data + 6, KEY);
        int f = data + FIXED_AT;
        b.putInt(f, 0xfeef04bd);                       // dwSignature
        b.putInt(f + 4, 0x0001_0000);                  // dwStrucVersion 1.0
        b.putInt(f + 8, version.mostSignificant()).putInt(f + 12, version.leastSignificant());
        b.putInt(f + 16, version.mostSignificant()).putInt(f + 20, version.leastSignificant()); // product version: the same
        b.putInt(f + 24, 0x3f);                        // dwFileFlagsMask
        b.putInt(f + 32, 0x0004_0004);                 // VOS_NT_WINDOWS32
        b.putInt(f + 36, 2);                           // VFT_DLL; flags, subtype and date 0
        return b.array();
    }

    /** An IMAGE_RESOURCE_DIRECTORY at {@code at} with one id entry. */
    private static void directory(ByteBuffer b, int at, int id, int target) {
        b.putShort(at + 14, (short) 1);                // NumberOfNamedEntries 0, NumberOfIdEntries 1
        b.putInt(at + DIRECTORY, id).putInt(at + DIRECTORY + 4, target);
    }
}
