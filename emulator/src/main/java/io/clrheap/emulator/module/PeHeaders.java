package io.clrheap.emulator.module;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;

/**
 * The header part of a PE32+ image for x64 ({@code coreclr.dll}): the DOS header with {@code e_lfanew}, the
 * {@code PE\0\0} signature, the COFF file header, the PE32+ optional header with its data directories, the section
 * table, and in a read-only {@code .rdata} section the export directory and the debug directory with its CodeView
 * record, and in a {@code .rsrc} section the resource directory with the version resource ({@link PeResources}). Facts:
 * the Microsoft "PE Format" specification (learn.microsoft.com/windows/win32/debug/pe-format) — header
 * fields and sizes, section flags, the export directory table, export address, name pointer and ordinal tables, the
 * debug directory (28 bytes an entry; IMAGE_DIRECTORY_ENTRY_DEBUG is data directory 6, IMAGE_DEBUG_TYPE_CODEVIEW 2;
 * sizes checked with mingw-w64's winnt.h, docs/reference/dump-formats.md section 3.9).
 *
 * <p>Sections, at the RVAs the ELF layout of {@link ModuleImageBuilder} uses, so that every variable has the same
 * address on both platforms: {@code .rdata} [0x1000, .text), {@code .text} [.text, .data), {@code .data}
 * [.data, end of .bss) with only [.data, .bss) in the file. File alignment = section alignment = 4 KiB and each
 * section's file offset is its RVA, so the file is laid out as it is mapped.
 */
final class PeHeaders {

    /** {@code e_lfanew}: the PE signature follows the 64-byte DOS header (no DOS stub program). */
    static final int NT_HEADERS = 0x80;
    /** IMAGE_FILE_MACHINE_AMD64. */
    static final int MACHINE_AMD64 = 0x8664;
    /** The PE32+ optional header's magic. */
    static final int PE32_PLUS = 0x20b;
    /** The optional header of PE32+ with 16 data directories: 112 bytes of fields, 16 × 8 of directories. */
    static final int OPTIONAL_HEADER_SIZE = 112 + 16 * 8;
    /** Where .rdata (the export directory) starts: after the headers' page. */
    static final long RDATA = 0x1000;
    /**
     * Where .rsrc (the resource directory) starts when the image has one: the last page before .text, where the emulated
     * layout has room (link.exe puts .rsrc after .data; no reader depends on the order of sections).
     */
    static final long RSRC = 0xf000;
    private static final int SECTION_HEADER_SIZE = 40;
    private static final int EXPORT_DIRECTORY_SIZE = 40;
    /** IMAGE_DEBUG_DIRECTORY: Characteristics, TimeDateStamp, Major/MinorVersion, Type, SizeOfData, AddressOfRawData, PointerToRawData. */
    static final int DEBUG_DIRECTORY_SIZE = 28;
    static final int DEBUG_TYPE_CODEVIEW = 2;
    /**
     * The export directory's TimeDateStamp: 0xFFFFFFFF in the export directories of the Microsoft-built .NET 8.0.30 and
     * 10.0.9 hosts measured (docs/reference/dump-formats.md section 3.9), not the file header's stamp.
     */
    static final int EXPORT_TIME_DATE_STAMP = 0xffff_ffff;
    private static final long ALIGNMENT = 0x1000;

    // section characteristics (PE Format, "Section Flags")
    private static final int CODE = 0x20;
    private static final int INITIALIZED_DATA = 0x40;
    private static final int MEM_EXECUTE = 0x2000_0000;
    private static final int MEM_READ = 0x4000_0000;
    private static final int MEM_WRITE = 0x8000_0000;

    private PeHeaders() {
    }

    /**
     * A fixed stand-in for the link time: the CRC-32 of the module's path (which names the build), so that the same
     * build always has the same TimeDateStamp, and different builds different ones, with no clock involved.
     */
    static int timeDateStamp(String path) {
        CRC32 crc = new CRC32();
        crc.update(path.getBytes(StandardCharsets.UTF_8));
        return (int) crc.getValue();
    }

    /**
     * Writes the headers, the export directory, where a CodeView record is given the debug directory, and where a file
     * version is given the resource directory with the version resource into {@code image} (little endian,
     * zero-filled, at least {@code bss} bytes).
     *
     * @param text     RVA of .text; .rdata must end before it
     * @param data     RVA of .data
     * @param bss      RVA where .data's file bytes end
     * @param bssEnd   RVA where .bss ends, page aligned: SizeOfImage
     * @param codeView the record the debug directory points at, or none (no debug directory)
     * @param version  the file version of the version resource, or none (no resource directory, no .rsrc)
     */
    static void write(ByteBuffer image, String fileName, long base, int timeDateStamp, long text, long data, long bss, long bssEnd,
                      List<ModuleImageBuilder.Export> exports, java.util.Optional<CodeViewRecord> codeView,
                      java.util.Optional<FileVersion> version) {
        // the resource directory, where there is a version resource: its own section in the last page before .text
        long rdataEnd = version.isPresent() ? RSRC : text;
        byte[] resources = version.map(v -> PeResources.version(RSRC, v)).orElse(new byte[0]);
        if (RSRC + resources.length > text) {
            throw new IllegalStateException("the resource directory of " + fileName + " does not fit below .text");
        }
        image.put((int) RSRC, resources);
        long exportEnd = RDATA + writeExports(image, fileName, base, rdataEnd, exports);
        long exportSize = exportEnd - RDATA;
        long debugDirectory = (exportEnd + 3) & -4L;
        if (codeView.isPresent()) {
            writeDebugDirectory(image, debugDirectory, timeDateStamp, codeView.get(), rdataEnd, fileName);
        }

        // DOS header: "MZ", e_lfanew at 0x3c; the fields between are those of any linker's DOS header
        image.position(0);
        image.putShort((short) 0x5a4d).putShort((short) 0x90).putShort((short) 3).putShort((short) 0).putShort((short) 4)
                .putShort((short) 0).putShort((short) 0xffff).putShort((short) 0).putShort((short) 0xb8);
        image.putInt(0x3c, NT_HEADERS);

        // "PE\0\0" and the COFF file header
        image.position(NT_HEADERS);
        image.put(new byte[] {'P', 'E', 0, 0});
        image.putShort((short) MACHINE_AMD64);
        image.putShort((short) (version.isPresent() ? 4 : 3)); // NumberOfSections
        image.putInt(timeDateStamp);
        image.putInt(0).putInt(0);                      // no COFF symbol table
        image.putShort((short) OPTIONAL_HEADER_SIZE);
        image.putShort((short) 0x2022);                 // EXECUTABLE_IMAGE | LARGE_ADDRESS_AWARE | DLL

        // the PE32+ optional header
        long rdataSize = rdataEnd - RDATA;
        long rsrcSize = text - rdataEnd;
        long textSize = data - text;
        long dataFileSize = bss - data;
        image.putShort((short) PE32_PLUS);
        image.put((byte) 14).put((byte) 0);             // linker version
        image.putInt((int) textSize);                   // SizeOfCode
        image.putInt((int) (rdataSize + rsrcSize + dataFileSize)); // SizeOfInitializedData
        image.putInt(0);                                // SizeOfUninitializedData: .bss is .data's virtual tail
        image.putInt(0);                                // AddressOfEntryPoint: optional for a DLL
        image.putInt((int) text);                       // BaseOfCode
        image.putLong(base);                            // ImageBase: loaded at its preferred base, no relocation
        image.putInt((int) ALIGNMENT).putInt((int) ALIGNMENT); // SectionAlignment, FileAlignment
        image.putShort((short) 6).putShort((short) 0);  // operating system version
        image.putShort((short) 0).putShort((short) 0);  // image version
        image.putShort((short) 6).putShort((short) 0);  // subsystem version
        image.putInt(0);                                // Win32VersionValue
        image.putInt((int) bssEnd);                     // SizeOfImage
        image.putInt((int) RDATA);                      // SizeOfHeaders
        image.putInt(0);                                // CheckSum: not checked for DLLs loaded by user code
        image.putShort((short) 2);                      // IMAGE_SUBSYSTEM_WINDOWS_GUI
        image.putShort((short) 0x0160);                 // HIGH_ENTROPY_VA | DYNAMIC_BASE | NX_COMPAT
        image.putLong(0x10_0000).putLong(0x1000).putLong(0x10_0000).putLong(0x1000); // stack and heap reserve/commit
        image.putInt(0);                                // LoaderFlags
        image.putInt(16);                               // NumberOfRvaAndSizes
        int directories = image.position();
        image.putInt(directories, (int) RDATA).putInt(directories + 4, (int) exportSize); // [0] export table
        if (version.isPresent()) {                      // [2] resource directory
            image.putInt(directories + 2 * 8, (int) RSRC).putInt(directories + 2 * 8 + 4, resources.length);
        }
        if (codeView.isPresent()) {                     // [6] debug directory; the others stay empty
            image.putInt(directories + 6 * 8, (int) debugDirectory).putInt(directories + 6 * 8 + 4, DEBUG_DIRECTORY_SIZE);
        }
        image.position(directories + 16 * 8);

        // the section table
        section(image, ".rdata", rdataSize, RDATA, rdataSize, INITIALIZED_DATA | MEM_READ);
        if (version.isPresent()) {
            section(image, ".rsrc", rsrcSize, rdataEnd, rsrcSize, INITIALIZED_DATA | MEM_READ);
        }
        section(image, ".text", textSize, text, textSize, CODE | MEM_EXECUTE | MEM_READ);
        section(image, ".data", bssEnd - data, data, dataFileSize, INITIALIZED_DATA | MEM_READ | MEM_WRITE);
        if (image.position() > RDATA) {
            throw new IllegalStateException("PE headers of " + fileName + " overflow their page");
        }
    }

    private static void section(ByteBuffer image, String name, long virtualSize, long rva, long fileSize, int characteristics) {
        byte[] padded = Arrays.copyOf(name.getBytes(StandardCharsets.US_ASCII), 8);
        image.put(padded);
        image.putInt((int) virtualSize).putInt((int) rva).putInt((int) fileSize).putInt((int) rva); // file offset = RVA
        image.putInt(0).putInt(0).putShort((short) 0).putShort((short) 0); // no relocations or line numbers
        image.putInt(characteristics);
    }

    /**
     * The export directory at {@link #RDATA}: the directory table, the export address table, the name pointer table
     * (sorted by name, byte order, as the loader's binary search needs), the ordinal table, the DLL's name and the
     * export names. Ordinals as Microsoft's linker gives them (measured on the .NET 8.0.30 and 10.0.9 hosts'
     * directories, docs/reference/dump-formats.md section 3.9): the ones the module definition file fixes
     * ({@code g_CLREngineMetrics @2}), then the others in name order after the highest fixed one; the ordinal base is
     * the lowest ordinal; an ordinal nothing has gets a 0 address.
     *
     * @return the bytes of export data (the export data directory's size)
     */
    private static long writeExports(ByteBuffer image, String fileName, long base, long limit, List<ModuleImageBuilder.Export> exports) {
        List<ModuleImageBuilder.Export> sorted = new ArrayList<>(exports);
        sorted.sort((a, b) -> Arrays.compare(ascii(a.name()), ascii(b.name())));
        int n = sorted.size();
        int highestFixed = sorted.stream().mapToInt(ModuleImageBuilder.Export::ordinal).max().orElse(0);
        int[] ordinals = new int[n];
        int next = highestFixed + 1;
        for (int i = 0; i < n; i++) {
            ordinals[i] = sorted.get(i).ordinal() != 0 ? sorted.get(i).ordinal() : next++;
        }
        int ordinalBase = n == 0 ? 1 : Arrays.stream(ordinals).min().orElseThrow();
        int functionCount = n == 0 ? 0 : Arrays.stream(ordinals).max().orElseThrow() - ordinalBase + 1;
        long functions = RDATA + EXPORT_DIRECTORY_SIZE;
        long names = functions + 4L * functionCount;
        long ordinalTable = names + 4L * n;
        long strings = ordinalTable + 2L * n;
        long at = strings;
        long dllName = at;
        at += fileName.length() + 1;
        long[] nameRvas = new long[n];
        for (int i = 0; i < n; i++) {
            nameRvas[i] = at;
            at += ascii(sorted.get(i).name()).length + 1;
        }
        if (at > limit) {
            throw new IllegalStateException(String.format("the export directory of %s needs 0x%x bytes, more than .rdata's 0x%x",
                    fileName, at - RDATA, limit - RDATA));
        }
        image.position((int) RDATA);
        image.putInt(0);                                // Characteristics
        image.putInt(EXPORT_TIME_DATE_STAMP);
        image.putShort((short) 0).putShort((short) 0);  // version
        image.putInt((int) dllName);
        image.putInt(ordinalBase);
        image.putInt(functionCount).putInt(n);          // NumberOfFunctions, NumberOfNames
        image.putInt((int) functions).putInt((int) names).putInt((int) ordinalTable);
        for (int i = 0; i < n; i++) {
            image.putInt((int) functions + 4 * (ordinals[i] - ordinalBase), (int) (sorted.get(i).address() - base));
            image.putInt((int) names + 4 * i, (int) nameRvas[i]);
            image.putShort((int) ordinalTable + 2 * i, (short) (ordinals[i] - ordinalBase)); // an index into the address table
            image.put((int) nameRvas[i], ascii(sorted.get(i).name()), 0, ascii(sorted.get(i).name()).length);
        }
        image.put((int) dllName, ascii(fileName), 0, fileName.length());
        return at - RDATA;
    }

    /**
     * One IMAGE_DEBUG_DIRECTORY entry of type CODEVIEW at {@code at}, its record right after it: AddressOfRawData is the
     * record's RVA and PointerToRawData its file offset, the same number here (file offset = RVA).
     */
    private static void writeDebugDirectory(ByteBuffer image, long at, int timeDateStamp, CodeViewRecord codeView, long limit, String fileName) {
        byte[] record = codeView.bytes();
        long recordAt = at + DEBUG_DIRECTORY_SIZE;
        if (recordAt + record.length > limit) {
            throw new IllegalStateException(String.format("the debug directory of %s does not fit in .rdata below 0x%x", fileName, limit));
        }
        image.position((int) at);
        image.putInt(0);                                // Characteristics
        image.putInt(timeDateStamp);                    // the image's, as the linker writes it
        image.putShort((short) 0).putShort((short) 0);  // Major/MinorVersion
        image.putInt(DEBUG_TYPE_CODEVIEW);
        image.putInt(record.length);                    // SizeOfData
        image.putInt((int) recordAt);                   // AddressOfRawData
        image.putInt((int) recordAt);                   // PointerToRawData
        image.put(record);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
