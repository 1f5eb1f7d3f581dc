package io.clrheap.walker.symbols;

import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import java.util.Objects;

/**
 * The headers of a PE32+ x64 image as mapped in a process, read from memory at the image base: DOS header →
 * {@code e_lfanew} → {@code PE\0\0} → COFF header (machine AMD64, TimeDateStamp) → PE32+ optional header (SizeOfImage,
 * the data directories). What {@link PeExports} and {@link PeResourceDirectory} start from. Facts: the Microsoft "PE
 * Format" specification ("MS-DOS Stub", "COFF File Header", "Optional Header Windows-Specific Fields", "Optional
 * Header Data Directories").
 *
 * @param memory        the memory the image is read from
 * @param base          the image base
 * @param sizeOfImage   SizeOfImage: every RVA of the image lies below it
 * @param timeDateStamp TimeDateStamp of the COFF header (unsigned)
 * @param directories   the address of the first data directory (8 bytes each: RVA, size)
 * @param directoryCount NumberOfRvaAndSizes, as far as SizeOfOptionalHeader holds them
 */
public record PeImageHeaders(Memory memory, long base, long sizeOfImage, long timeDateStamp, long directories, int directoryCount) {

    /** IMAGE_FILE_MACHINE_AMD64. */
    public static final int MACHINE_AMD64 = 0x8664;
    /** IMAGE_DIRECTORY_ENTRY_EXPORT. */
    public static final int EXPORT_DIRECTORY = 0;
    /** IMAGE_DIRECTORY_ENTRY_RESOURCE. */
    public static final int RESOURCE_DIRECTORY = 2;
    private static final int DOS_MAGIC = 0x5a4d;          // "MZ"
    private static final int PE_SIGNATURE = 0x4550;       // "PE\0\0"
    private static final int PE32_PLUS = 0x20b;
    /** e_lfanew beyond this is not a header a linker writes (they put it within the first page or so). */
    private static final long MAX_LFANEW = 1 << 16;
    /** Optional-header offsets of PE32+. */
    private static final int OPT_SIZE_OF_IMAGE = 56;
    private static final int OPT_NUMBER_OF_RVA_AND_SIZES = 108;
    private static final int OPT_DIRECTORIES = 112;
    /** The data directories a PE32+ header defines (IMAGE_NUMBEROF_DIRECTORY_ENTRIES). */
    private static final int MAX_DIRECTORIES = 16;

    public PeImageHeaders {
        Objects.requireNonNull(memory, "memory");
    }

    /**
     * Reads the headers of the image mapped at {@code base}.
     *
     * @throws ModuleFormatException  when they are not those of a PE32+ AMD64 image, naming the address
     * @throws MissingMemoryException when bytes they need are not in {@code memory}
     */
    public static PeImageHeaders read(Memory memory, long base) throws ModuleFormatException {
        Objects.requireNonNull(memory, "memory");
        if (memory.readU16(base) != DOS_MAGIC) {
            throw error(memory, base, base, String.format("no DOS header: 0x%04x where \"MZ\" belongs", memory.readU16(base)));
        }
        long lfanew = memory.readU32(base + 0x3c);
        if (lfanew < 0x40 || lfanew > MAX_LFANEW) {
            throw error(memory, base, base + 0x3c, String.format("e_lfanew 0x%x is not a PE header's offset (0x40..0x%x)", lfanew, MAX_LFANEW));
        }
        long nt = base + lfanew;
        if (memory.readInt(nt) != PE_SIGNATURE) {
            throw error(memory, base, nt, String.format("no PE signature: 0x%08x where \"PE\\0\\0\" belongs", memory.readInt(nt)));
        }
        int machine = memory.readU16(nt + 4);
        if (machine != MACHINE_AMD64) {
            throw error(memory, base, nt + 4, String.format("machine 0x%04x is not AMD64 (0x%04x)", machine, MACHINE_AMD64));
        }
        long timeDateStamp = memory.readU32(nt + 8);
        int optionalSize = memory.readU16(nt + 20);
        long optional = nt + 24;
        int magic = memory.readU16(optional);
        if (magic != PE32_PLUS) {
            throw error(memory, base, optional, String.format("optional header magic 0x%x is not PE32+ (0x%x)", magic, PE32_PLUS));
        }
        if (optionalSize < OPT_NUMBER_OF_RVA_AND_SIZES + 4) {
            throw error(memory, base, nt + 20, String.format("SizeOfOptionalHeader %d is too small for a PE32+ header (%d)", optionalSize,
                    OPT_NUMBER_OF_RVA_AND_SIZES + 4));
        }
        long sizeOfImage = memory.readU32(optional + OPT_SIZE_OF_IMAGE);
        if (sizeOfImage < lfanew + 24 + optionalSize) {
            throw error(memory, base, optional + OPT_SIZE_OF_IMAGE, String.format("SizeOfImage 0x%x does not hold the headers (0x%x bytes)",
                    sizeOfImage, lfanew + 24 + optionalSize));
        }
        long declared = memory.readU32(optional + OPT_NUMBER_OF_RVA_AND_SIZES);
        int room = (optionalSize - OPT_DIRECTORIES) / 8;
        int count = (int) Math.max(0, Math.min(Math.min(declared, MAX_DIRECTORIES), room));
        return new PeImageHeaders(memory, base, sizeOfImage, timeDateStamp, optional + OPT_DIRECTORIES, count);
    }

    /** Data directory {@code index}: its RVA and size, both 0 when the image has none. */
    public DataDirectory directory(int index) {
        if (index < 0 || index >= directoryCount) {
            return new DataDirectory(directories + 8L * index, 0, 0);
        }
        long at = directories + 8L * index;
        return new DataDirectory(at, memory.readU32(at), memory.readU32(at + 4));
    }

    /**
     * Checks that {@code length} bytes at {@code rva} lie inside the image.
     *
     * @param where the address the RVA was read from, for the message
     * @throws ModuleFormatException naming {@code what}, the RVA and {@code where}
     */
    public void requireInImage(long rva, long length, long where, String what) throws ModuleFormatException {
        if (rva < 0 || length < 0 || rva > sizeOfImage || length > sizeOfImage - rva) {
            throw error(where, String.format("%s (0x%x bytes at RVA 0x%x) is outside the image (SizeOfImage 0x%x)", what, length, rva, sizeOfImage));
        }
    }

    /** A format error of this image at {@code where}. */
    public ModuleFormatException error(long where, String what) {
        return error(memory, base, where, what);
    }

    private static ModuleFormatException error(Memory memory, long base, long where, String what) {
        return new ModuleFormatException(String.format("the PE image at 0x%x in %s: %s at 0x%x", base, memory.describe(), what, where));
    }

    /**
     * An IMAGE_DATA_DIRECTORY.
     *
     * @param at   where the directory entry itself is
     * @param rva  VirtualAddress
     * @param size Size
     */
    public record DataDirectory(long at, long rva, long size) {

        public boolean present() {
            return rva != 0 || size != 0;
        }
    }
}
