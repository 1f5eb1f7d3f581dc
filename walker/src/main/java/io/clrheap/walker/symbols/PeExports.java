package io.clrheap.walker.symbols;

import io.clrheap.memory.Memory;
import io.clrheap.memory.MissingMemoryException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * The exports of a PE32+ x64 image (a Windows DLL such as {@code coreclr.dll}) as mapped in a process, read from the
 * process's (or its dump's) memory at the image base: the headers ({@link PeImageHeaders}) → the export data directory
 * → export directory → name pointer, ordinal and address tables. Facts: the Microsoft "PE Format" specification; docs/reference/dump-formats.md section 4.6.
 *
 * <p>Bounded: every RVA must lie inside SizeOfImage, the counts are capped ({@value #MAX_EXPORTS}; ordinals are 16-bit)
 * and names are read up to {@value #MAX_NAME} bytes. A header that is readable but wrong is a
 * {@link ModuleFormatException} naming the module base and the address; bytes missing from the memory throw the
 * memory's {@link MissingMemoryException}. PE exports carry no size.
 */
public final class PeExports {

    /** IMAGE_FILE_MACHINE_AMD64. */
    public static final int MACHINE_AMD64 = PeImageHeaders.MACHINE_AMD64;
    /** The export tables index with 16-bit ordinals. */
    static final long MAX_EXPORTS = 1 << 16;
    static final int MAX_NAME = 4096;
    private static final int EXPORT_DIRECTORY_SIZE = 40;

    private final Memory memory;
    private final long base;
    private final long sizeOfImage;
    private final long timeDateStamp;
    private final long exportRva;
    private final long exportSize;
    private final long functionCount;
    private final long nameCount;
    private final long functions;
    private final long names;
    private final long ordinals;

    private PeExports(Memory memory, long base, long sizeOfImage, long timeDateStamp, long exportRva, long exportSize, long functionCount,
                      long nameCount, long functions, long names, long ordinals) {
        this.memory = memory;
        this.base = base;
        this.sizeOfImage = sizeOfImage;
        this.timeDateStamp = timeDateStamp;
        this.exportRva = exportRva;
        this.exportSize = exportSize;
        this.functionCount = functionCount;
        this.nameCount = nameCount;
        this.functions = functions;
        this.names = names;
        this.ordinals = ordinals;
    }

    /**
     * Reads the headers and the export directory of the image mapped at {@code base}.
     *
     * @throws ModuleFormatException  when they are not those of a PE32+ AMD64 image, or are corrupt; an image without
     *                                an export directory has no exports, which is not an error
     * @throws MissingMemoryException when bytes they need are not in {@code memory}
     */
    public static PeExports inMemory(Memory memory, long base) throws ModuleFormatException {
        PeImageHeaders headers = PeImageHeaders.read(memory, base);
        long sizeOfImage = headers.sizeOfImage();
        long timeDateStamp = headers.timeDateStamp();
        PeImageHeaders.DataDirectory export = headers.directory(PeImageHeaders.EXPORT_DIRECTORY);
        if (!export.present()) {
            return empty(memory, base, sizeOfImage, timeDateStamp);
        }
        long exportRva = export.rva();
        long exportSize = export.size();
        requireInImage(memory, base, sizeOfImage, exportRva, EXPORT_DIRECTORY_SIZE, export.at(), "the export directory");
        long directory = base + exportRva;
        long functionCount = memory.readU32(directory + 20);
        long nameCount = memory.readU32(directory + 24);
        if (functionCount > MAX_EXPORTS || nameCount > MAX_EXPORTS) {
            throw error(memory, base, directory + 20, String.format("%d functions and %d names exported: more than %d", functionCount,
                    nameCount, MAX_EXPORTS));
        }
        long functions = memory.readU32(directory + 28);
        long names = memory.readU32(directory + 32);
        long ordinals = memory.readU32(directory + 36);
        requireInImage(memory, base, sizeOfImage, functions, 4 * functionCount, directory + 28, "the export address table");
        requireInImage(memory, base, sizeOfImage, names, 4 * nameCount, directory + 32, "the export name pointer table");
        requireInImage(memory, base, sizeOfImage, ordinals, 2 * nameCount, directory + 36, "the export ordinal table");
        return new PeExports(memory, base, sizeOfImage, timeDateStamp, exportRva, exportSize, functionCount, nameCount, functions, names, ordinals);
    }

    private static PeExports empty(Memory memory, long base, long sizeOfImage, long timeDateStamp) {
        return new PeExports(memory, base, sizeOfImage, timeDateStamp, 0, 0, 0, 0, 0, 0, 0);
    }

    private static void requireInImage(Memory memory, long base, long sizeOfImage, long rva, long length, long where, String what)
            throws ModuleFormatException {
        if (rva > sizeOfImage || length > sizeOfImage - rva) {
            throw error(memory, base, where, String.format("%s (0x%x bytes at RVA 0x%x) is outside the image (SizeOfImage 0x%x)",
                    what, length, rva, sizeOfImage));
        }
    }

    private static ModuleFormatException error(Memory memory, long base, long where, String what) {
        return new ModuleFormatException(String.format("the PE image at 0x%x in %s: %s at 0x%x", base, memory.describe(), what, where));
    }

    /** The image base. */
    public long base() {
        return base;
    }

    /** SizeOfImage from the optional header. */
    public long sizeOfImage() {
        return sizeOfImage;
    }

    /** TimeDateStamp from the COFF header (unsigned). */
    public long timeDateStamp() {
        return timeDateStamp;
    }

    /** How many names the export directory lists. */
    public long nameCount() {
        return nameCount;
    }

    /**
     * The address of the export named {@code name}: base + its export address table entry. Every name is compared
     * (the table is meant to be sorted, but a scan does not depend on it), at most {@value #MAX_EXPORTS} of them.
     * A forwarder (an entry pointing into the export directory, naming another DLL's export) is not an address in
     * this image and is not returned.
     *
     * @throws ModuleFormatException  when a table entry is corrupt (an RVA outside the image, an ordinal past the
     *                                address table)
     * @throws MissingMemoryException when bytes the lookup needs are not in the memory
     */
    public Optional<Long> lookup(String name) throws ModuleFormatException {
        byte[] wanted = name.getBytes(StandardCharsets.US_ASCII);
        if (wanted.length == 0 || wanted.length >= MAX_NAME) {
            return Optional.empty();
        }
        for (long i = 0; i < nameCount; i++) {
            long pointer = base + names + 4 * i;
            long nameRva = memory.readU32(pointer);
            requireInImage(memory, base, sizeOfImage, nameRva, 1, pointer, "export name " + i);
            if (!nameAt(nameRva, wanted)) {
                continue;
            }
            long ordinalAt = base + ordinals + 2 * i;
            int ordinal = memory.readU16(ordinalAt);
            if (ordinal >= functionCount) {
                throw error(memory, base, ordinalAt, String.format("the ordinal of %s is %d, past the %d entries of the export address table",
                        name, ordinal, functionCount));
            }
            long entry = base + functions + 4L * ordinal;
            long rva = memory.readU32(entry);
            if (rva >= exportRva && rva < exportRva + exportSize) {
                return Optional.empty(); // a forwarder: "OTHERDLL.name"
            }
            requireInImage(memory, base, sizeOfImage, rva, 1, entry, "the address of export " + name);
            return Optional.of(base + rva);
        }
        return Optional.empty();
    }

    /** True when the NUL-terminated name at {@code rva} is {@code wanted}: reads at most its length + 1 bytes, within the image. */
    private boolean nameAt(long rva, byte[] wanted) {
        long room = sizeOfImage - rva;
        if (room < wanted.length + 1) {
            return false;
        }
        byte[] found = memory.readBytes(base + rva, wanted.length + 1);
        return found[wanted.length] == 0 && Arrays.equals(found, 0, wanted.length, wanted, 0, wanted.length);
    }

    @Override
    public String toString() {
        return String.format("PeExports[image at 0x%x, 0x%x bytes, %d names]", base, sizeOfImage, nameCount);
    }
}
