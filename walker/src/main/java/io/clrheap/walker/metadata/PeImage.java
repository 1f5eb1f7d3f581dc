package io.clrheap.walker.metadata;

import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;

/**
 * A PE image in process memory, read just far enough to find its ECMA-335 metadata: DOS header → {@code e_lfanew}
 * → PE optional header → data directory 14 (the CLI header) → {@code IMAGE_COR20_HEADER.MetaData} → {@code BSJB}.
 * The image may be mapped (a loaded layout) or flat (the file's bytes, e.g. a single-file bundle's CoreLib); both
 * are tried, mapped first (docs/reference/type-names.md section 2).
 */
public final class PeImage {

    /** IMAGE_COR20_HEADER.cb: the CLI header's size (ECMA-335 II.25.3.3). */
    static final int CLI_HEADER_SIZE = 72;
    /** IMAGE_FILE_HEADER.NumberOfSections is a WORD, but the loader caps sections at 96 (PE/COFF specification). */
    static final int MAX_SECTIONS = 96;
    /** Metadata larger than this is refused: CoreLib's is about 6 MB. */
    static final long MAX_METADATA_SIZE = 512L << 20;

    private PeImage() {
    }

    /**
     * The metadata of the image at {@code base}.
     *
     * @throws MissingMemoryException   when the header pages or the metadata root are not in the dump
     * @throws MetadataFormatException  when the image is not a PE image with a CLI header and metadata root
     */
    public static MetadataLocation locate(Memory memory, long base) {
        if (memory.readU16(base) != 0x5a4d) {
            throw new MetadataFormatException(base, "no MZ signature at the image base");
        }
        long lfanew = memory.readU32(base + 0x3c);
        if (lfanew < 0x40 || lfanew > 0x10000) {
            throw new MetadataFormatException(base + 0x3c, "e_lfanew " + lfanew + " out of range");
        }
        long pe = base + lfanew;
        if (memory.readInt(pe) != 0x00004550) {
            throw new MetadataFormatException(pe, "no PE signature");
        }
        int sections = memory.readU16(pe + 6);
        if (sections > MAX_SECTIONS) {
            throw new MetadataFormatException(pe + 6, sections + " sections (at most " + MAX_SECTIONS + ")");
        }
        int optionalSize = memory.readU16(pe + 20);
        long optional = pe + 24;
        int magic = memory.readU16(optional);
        long directories;
        if (magic == 0x10b) {
            directories = optional + 96;
        } else if (magic == 0x20b) {
            directories = optional + 112;
        } else {
            throw new MetadataFormatException(optional, String.format("optional header magic 0x%x", magic));
        }
        long cliRva = memory.readU32(directories + 14 * 8);
        if (cliRva == 0) {
            throw new MetadataFormatException(directories + 14 * 8, "no CLI header: not a managed image");
        }
        long sectionTable = optional + optionalSize;
        long[][] sectionRows = new long[sections][];
        for (int i = 0; i < sections; i++) {
            long s = sectionTable + i * 40L;
            sectionRows[i] = new long[] {memory.readU32(s + 8), memory.readU32(s + 12), memory.readU32(s + 16), memory.readU32(s + 20)};
        }
        RuntimeException first = null;
        for (ImageLayoutKind kind : ImageLayoutKind.values()) {
            try {
                long cli = base + offset(kind, cliRva, sectionRows);
                if (memory.readU32(cli) != CLI_HEADER_SIZE) {
                    throw new MetadataFormatException(cli, "no CLI header (cb is not 72) in the " + kind.name().toLowerCase() + " layout");
                }
                long mdRva = memory.readU32(cli + 8);
                long mdSize = memory.readU32(cli + 12);
                if (mdSize > MAX_METADATA_SIZE) {
                    throw new MetadataFormatException(cli + 12, "metadata size " + mdSize + " too large");
                }
                long root = base + offset(kind, mdRva, sectionRows);
                if (memory.readInt(root) != 0x424a5342) {
                    throw new MetadataFormatException(root, "no BSJB metadata signature in the " + kind.name().toLowerCase() + " layout");
                }
                return new MetadataLocation(base, kind, root, mdSize);
            } catch (MissingMemoryException | MetadataFormatException e) {
                if (first == null || (first instanceof MetadataFormatException && e instanceof MissingMemoryException)) {
                    first = e;
                }
            }
        }
        throw first;
    }

    /** The offset from the image base of {@code rva}: itself when mapped, through the section table when flat. */
    private static long offset(ImageLayoutKind kind, long rva, long[][] sections) {
        if (kind == ImageLayoutKind.MAPPED) {
            return rva;
        }
        for (long[] s : sections) { // VirtualSize, VirtualAddress, SizeOfRawData, PointerToRawData
            long va = s[1];
            if (va <= rva && rva < va + Math.max(s[0], s[2])) {
                return rva - va + s[3];
            }
        }
        return rva; // in the headers
    }
}
