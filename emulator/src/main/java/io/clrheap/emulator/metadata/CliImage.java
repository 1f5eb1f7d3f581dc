package io.clrheap.emulator.metadata;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * An IL-only assembly as a PE32+ image (ECMA-335 II.25; the PE/COFF specification): the DOS header with
 * {@code e_lfanew}, the PE signature, the COFF file header (AMD64, a DLL), the PE32+ optional header whose data
 * directory 14 is the CLI header, one section ({@code .text}) holding the CLI header ({@code IMAGE_COR20_HEADER},
 * 72 bytes, IL only) and the metadata right after it.
 *
 * <p>The section's file offset is its RVA ({@value #TEXT_RVA}), so the file's bytes are the image as mapped: read
 * mapped (RVA = offset from the base) or flat (RVA through the section table) it is the same. The headers sit where
 * the runtime's loaded layouts cache them in the real dumps: NT headers at base + {@value #NT_HEADERS}
 * (docs/reference/type-names.md section 2).
 *
 * @param bytes     the image, as the file holds it and as mapped from its base
 * @param sizeOfImage the optional header's SizeOfImage: the mapped extent, page aligned
 */
public record CliImage(byte[] bytes, int sizeOfImage) {

    /** e_lfanew: the NT headers' offset (0x80 in every assembly of the real dumps). */
    public static final int NT_HEADERS = 0x80;
    /** The .text section's RVA and file offset; the CLI header is its first bytes. */
    public static final int TEXT_RVA = 0x1000;
    /** sizeof(IMAGE_COR20_HEADER), its {@code cb} (ECMA-335 II.25.3.3). */
    public static final int COR20_SIZE = 72;
    static final int FILE_ALIGNMENT = 0x200;
    static final int SECTION_ALIGNMENT = 0x1000;
    static final int OPTIONAL_HEADER_SIZE = 240;
    static final int IMAGE_FILE_MACHINE_AMD64 = 0x8664;
    /** IMAGE_FILE_EXECUTABLE_IMAGE | IMAGE_FILE_LARGE_ADDRESS_AWARE | IMAGE_FILE_DLL. */
    static final int DLL_CHARACTERISTICS = 0x2022;
    /** DYNAMIC_BASE | NX_COMPAT | NO_SEH | TERMINAL_SERVER_AWARE, as Roslyn writes them for a library. */
    static final int DLL_FLAGS = 0x8540;
    /** IMAGE_SCN_CNT_CODE | IMAGE_SCN_MEM_EXECUTE | IMAGE_SCN_MEM_READ. */
    static final int TEXT_CHARACTERISTICS = 0x60000020;
    /** COMIMAGE_FLAGS_ILONLY. */
    static final int COMIMAGE_FLAGS_ILONLY = 0x1;
    static final int COM_DESCRIPTOR_DIRECTORY = 14;
    /** The preferred base of a 64-bit DLL (the image is mapped elsewhere; nothing is relocated in IL-only code). */
    static final long IMAGE_BASE = 0x180000000L;

    public CliImage {
        bytes = bytes.clone();
    }

    @Override
    public byte[] bytes() {
        return bytes.clone();
    }

    /** The RVA of the CLI header (ECMA-335 II.25.3.3). */
    public int corHeaderRva() {
        return TEXT_RVA;
    }

    /** The image of an assembly with {@code metadata}. */
    public static CliImage of(byte[] metadata) {
        int metadataRva = TEXT_RVA + COR20_SIZE;
        int textSize = COR20_SIZE + metadata.length;
        int rawSize = align(textSize, FILE_ALIGNMENT);
        int sizeOfImage = align(TEXT_RVA + textSize, SECTION_ALIGNMENT);
        ByteBuffer b = ByteBuffer.allocate(TEXT_RVA + rawSize).order(ByteOrder.LITTLE_ENDIAN);
        b.put(0, (byte) 'M').put(1, (byte) 'Z');
        b.putInt(0x3c, NT_HEADERS);
        b.position(NT_HEADERS);
        b.put(new byte[] {'P', 'E', 0, 0});
        // COFF file header: one section, no symbols, time stamp 0 (a deterministic build's bytes do not change with time)
        b.putShort((short) IMAGE_FILE_MACHINE_AMD64).putShort((short) 1).putInt(0).putInt(0).putInt(0)
                .putShort((short) OPTIONAL_HEADER_SIZE).putShort((short) DLL_CHARACTERISTICS);
        // PE32+ optional header
        b.putShort((short) 0x20b).put((byte) 48).put((byte) 0).putInt(rawSize).putInt(0).putInt(0).putInt(0).putInt(TEXT_RVA)
                .putLong(IMAGE_BASE).putInt(SECTION_ALIGNMENT).putInt(FILE_ALIGNMENT)
                .putShort((short) 4).putShort((short) 0).putShort((short) 0).putShort((short) 0).putShort((short) 4).putShort((short) 0)
                .putInt(0).putInt(sizeOfImage).putInt(FILE_ALIGNMENT).putInt(0).putShort((short) 3).putShort((short) DLL_FLAGS)
                .putLong(0x400000).putLong(0x4000).putLong(0x100000).putLong(0x2000).putInt(0).putInt(16);
        for (int d = 0; d < 16; d++) {
            boolean cli = d == COM_DESCRIPTOR_DIRECTORY;
            b.putInt(cli ? TEXT_RVA : 0).putInt(cli ? COR20_SIZE : 0);
        }
        // the section table: .text at RVA = file offset
        b.put(new byte[] {'.', 't', 'e', 'x', 't', 0, 0, 0}).putInt(textSize).putInt(TEXT_RVA).putInt(rawSize).putInt(TEXT_RVA)
                .putInt(0).putInt(0).putShort((short) 0).putShort((short) 0).putInt(TEXT_CHARACTERISTICS);
        // IMAGE_COR20_HEADER: cb, runtime version 2.5, MetaData, flags IL only; no entry point, resources or native header
        b.position(TEXT_RVA);
        b.putInt(COR20_SIZE).putShort((short) 2).putShort((short) 5).putInt(metadataRva).putInt(metadata.length).putInt(COMIMAGE_FLAGS_ILONLY);
        b.position(metadataRva);
        b.put(metadata);
        return new CliImage(b.array(), sizeOfImage);
    }

    private static int align(int v, int a) {
        return (v + a - 1) & -a;
    }
}
