package io.clrheap.walker.source.elf;

import io.clrheap.walker.source.DumpFiles;
import io.clrheap.walker.source.DumpFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The decompressed start of an {@code .xz} core (an ELF core or a minidump) up to the end of its header tables, and the
 * file size they declare: what {@link XzCache} decompresses first, and bounds the rest of the decompression by.
 *
 * @param bytes        the decompressed start of the core, through its header tables
 * @param declaredSize the size of the file the headers describe
 * @param what         which table or segment ends last, for messages
 */
record CoreHeaders(byte[] bytes, long declaredSize, String what) {

    /** gABI "Extended program header numbering": e_phnum holds this and section header 0's sh_info the count. */
    private static final int PN_XNUM = 0xffff;
    private static final int SH_INFO = 44;

    /**
     * Decompresses the ELF header and the program header table (at most {@link XzCache#MAX_HEADER_BYTES}) and reads from them
     * the size of the file they describe: the end of the last segment's bytes ({@code p_offset + p_filesz}), of the
     * header tables and of the section header table. An xz file that holds no ELF file is refused here, before more
     * than {@link DumpFiles#PREFIX} bytes are decompressed.
     */
    static CoreHeaders read(Path xz, InputStream in) throws IOException {
        byte[] prefix = in.readNBytes(DumpFiles.PREFIX);
        if (prefix.length >= 4 && prefix[0] == 'M' && prefix[1] == 'D' && prefix[2] == 'M' && prefix[3] == 'P') {
            return minidumpHeaders(xz, in, prefix);
        }
        if (prefix.length < ElfCoreHeader.EHDR_SIZE || prefix[0] != 0x7f || prefix[1] != 'E' || prefix[2] != 'L' || prefix[3] != 'F') {
            throw new DumpFormatException(xz + ": an xz file whose data are not an ELF core: " + DumpFiles.describe(prefix)
                    + "; refused before decompressing the rest");
        }
        ByteBuffer ehdr = ByteBuffer.wrap(prefix).order(ByteOrder.LITTLE_ENDIAN);
        if (prefix[4] != 2 || prefix[5] != 1) {
            throw new DumpFormatException(String.format("%s: the decompressed ELF header has EI_CLASS %d and EI_DATA %d; only "
                    + "64-bit little-endian cores are read (ELFCLASS64 2, ELFDATA2LSB 1), at file offset 0x4", xz, prefix[4], prefix[5]));
        }
        long phoff = ehdr.getLong(32);
        long shoff = ehdr.getLong(40);
        int phentsize = Short.toUnsignedInt(ehdr.getShort(54));
        long phnum = Short.toUnsignedInt(ehdr.getShort(56));
        int shentsize = Short.toUnsignedInt(ehdr.getShort(58));
        long shnum = Short.toUnsignedInt(ehdr.getShort(60));
        if (phentsize != ElfCoreHeader.PHDR_SIZE) {
            throw new DumpFormatException(String.format("%s: e_phentsize is %d, not %d (sizeof(Elf64_Phdr)) at file offset 0x36",
                    xz, phentsize, ElfCoreHeader.PHDR_SIZE));
        }
        long declared = ElfCoreHeader.EHDR_SIZE;
        String what = "the ELF header";
        byte[] bytes = prefix;
        if (shoff != 0) {
            long end = end(xz, shoff, shnum * shentsize, "the section header table (e_shoff, e_shnum × e_shentsize)");
            if (end > declared) {
                declared = end;
                what = "the section header table ends there";
            }
        }
        if (phnum == PN_XNUM) {
            if (shoff == 0 || end(xz, shoff, ElfCoreHeader.SHDR_SIZE, "section header 0") > XzCache.MAX_HEADER_BYTES) {
                // the count is in section header 0, which lies past the headers (a kernel core writes it at the end):
                // the section header table's end is the declared size; the reader checks the segments against it
                return new CoreHeaders(bytes, declared, what);
            }
            bytes = more(xz, in, bytes, shoff + ElfCoreHeader.SHDR_SIZE);
            phnum = Integer.toUnsignedLong(ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt((int) shoff + SH_INFO));
        }
        long tableEnd = end(xz, phoff, phnum * ElfCoreHeader.PHDR_SIZE, "the program header table (e_phoff, e_phnum)");
        if (tableEnd > XzCache.MAX_HEADER_BYTES) {
            throw new DumpFormatException(String.format("%s: the program header table (e_phoff 0x%x, %d entries) ends at 0x%x, "
                    + "past the first 0x%x bytes where this reader looks for it (at file offset 0x20)", xz, phoff, phnum, tableEnd,
                    XzCache.MAX_HEADER_BYTES));
        }
        bytes = more(xz, in, bytes, tableEnd);
        if (tableEnd > declared) {
            declared = tableEnd;
            what = "the program header table ends there";
        }
        ByteBuffer table = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        for (long i = 0; i < phnum; i++) {
            int at = (int) (phoff + i * ElfCoreHeader.PHDR_SIZE);
            long offset = table.getLong(at + 8);
            long filesz = table.getLong(at + 32);
            long end = end(xz, offset, filesz, String.format("program header %d (p_offset 0x%x, p_filesz 0x%x, at file offset "
                    + "0x%x)", i, offset, filesz, at));
            if (end > declared) {
                declared = end;
                what = String.format("program header %d's bytes end there", i);
            }
        }
        return new CoreHeaders(bytes, declared, what);
    }

    /**
     * A minidump's header, stream directory and Memory64List (at most {@link XzCache#MAX_HEADER_BYTES}), and the file size they
     * declare: the end of the last stream, or of the memory ({@code BaseRva} plus every range's DataSize), whichever
     * lies further (MINIDUMP_HEADER, MINIDUMP_DIRECTORY, MINIDUMP_MEMORY64_LIST: docs/reference/dump-formats.md §3).
     */
    private static CoreHeaders minidumpHeaders(Path xz, InputStream in, byte[] prefix) throws IOException {
        byte[] bytes = more(xz, in, prefix, 32);
        ByteBuffer header = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        long streams = Integer.toUnsignedLong(header.getInt(8));
        long directory = Integer.toUnsignedLong(header.getInt(12));
        long directoryEnd = end(xz, directory, streams * 12, "the stream directory (StreamDirectoryRva, NumberOfStreams × 12)");
        if (directoryEnd > XzCache.MAX_HEADER_BYTES) {
            throw new DumpFormatException(String.format("%s: the minidump's stream directory (at 0x%x, %d streams) ends past the first "
                    + "0x%x bytes where this reader looks for it (at file offset 0x8)", xz, directory, streams, XzCache.MAX_HEADER_BYTES));
        }
        bytes = more(xz, in, bytes, directoryEnd);
        long declared = directoryEnd;
        String what = "the stream directory ends there";
        long memoryList = -1;
        for (long i = 0; i < streams; i++) {
            ByteBuffer entry = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            int at = (int) (directory + 12 * i);
            long size = Integer.toUnsignedLong(entry.getInt(at + 4));
            long rva = Integer.toUnsignedLong(entry.getInt(at + 8));
            if (entry.getInt(at) == 9 && memoryList < 0) { // Memory64ListStream
                memoryList = rva;
            }
            if (rva + size > declared) {
                declared = rva + size;
                what = String.format("stream %d (type %d) ends there", i, entry.getInt(at));
            }
        }
        if (memoryList >= 0) {
            if (memoryList + 16 > XzCache.MAX_HEADER_BYTES) {
                throw new DumpFormatException(String.format("%s: the Memory64List at 0x%x lies past the first 0x%x bytes where this reader "
                        + "looks for it", xz, memoryList, XzCache.MAX_HEADER_BYTES));
            }
            bytes = more(xz, in, bytes, memoryList + 16);
            ByteBuffer list = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            long ranges = list.getLong((int) memoryList);
            long baseRva = list.getLong((int) memoryList + 8);
            long listEnd = end(xz, memoryList + 16, ranges < 0 || ranges > XzCache.MAX_HEADER_BYTES / 16 ? Long.MAX_VALUE / 2 : ranges * 16,
                    String.format("the Memory64List's %s descriptors (at file offset 0x%x)", Long.toUnsignedString(ranges), memoryList));
            if (listEnd > XzCache.MAX_HEADER_BYTES) {
                throw new DumpFormatException(String.format("%s: the Memory64List's %s descriptors end past the first 0x%x bytes where this "
                        + "reader looks for them (at file offset 0x%x)", xz, Long.toUnsignedString(ranges), XzCache.MAX_HEADER_BYTES, memoryList));
            }
            bytes = more(xz, in, bytes, listEnd);
            list = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            long memoryEnd = baseRva;
            for (long r = 0; r < ranges; r++) {
                long size = list.getLong((int) (memoryList + 24 + 16 * r));
                memoryEnd = end(xz, memoryEnd, size, String.format("memory range %d (DataSize 0x%x, descriptor at file offset 0x%x)", r, size,
                        memoryList + 16 + 16 * r));
            }
            if (memoryEnd > declared) {
                declared = memoryEnd;
                what = "the Memory64List's memory ends there";
            }
        }
        return new CoreHeaders(bytes, declared, what);
    }

    /** {@code offset + length}, refused when it does not fit a file. */
    private static long end(Path xz, long offset, long length, String what) throws DumpFormatException {
        if (offset < 0 || length < 0 || offset > Long.MAX_VALUE - length) {
            throw new DumpFormatException(String.format("%s: %s: 0x%x + 0x%x bytes is past any file size", xz, what, offset, length));
        }
        return offset + length;
    }

    /** {@code bytes} extended with decompressed data to {@code length} bytes, when shorter. */
    private static byte[] more(Path xz, InputStream in, byte[] bytes, long length) throws IOException {
        if (length <= bytes.length) {
            return bytes;
        }
        byte[] longer = Arrays.copyOf(bytes, (int) length);
        int got = in.readNBytes(longer, bytes.length, longer.length - bytes.length);
        if (bytes.length + got < length) {
            throw new DumpFormatException(String.format("%s: the data end at 0x%x decompressed bytes, inside the core's headers "
                    + "(which end at 0x%x)", xz, bytes.length + got, length));
        }
        return longer;
    }
}
