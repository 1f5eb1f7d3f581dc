package io.clrheap.walker.symbols;

import java.util.ArrayList;
import java.util.List;

/**
 * The ELF header and program headers of a module, as far as symbol lookup needs them: its {@code PT_LOAD}s and its
 * {@code PT_DYNAMIC}. Field offsets: the System V gABI "ELF Header" and "Program Header" (glibc {@code <elf.h>}).
 *
 * @param dynamicAddress link-time {@code p_vaddr} of {@code PT_DYNAMIC}
 * @param dynamicSize    its {@code p_filesz}
 */
record ModuleHeaders(List<ElfLoad> loads, long dynamicAddress, long dynamicSize) {

    private static final int EHDR_SIZE = 64;
    private static final int PHDR_SIZE = 56;
    private static final int ELFCLASS64 = 2;
    private static final int ELFDATA2LSB = 1;
    private static final int ET_EXEC = 2;
    private static final int ET_DYN = 3;
    private static final int EM_X86_64 = 62;
    private static final int PT_LOAD = 1;
    private static final int PT_DYNAMIC = 2;

    static ModuleHeaders read(ImageBytes image) throws ModuleFormatException {
        long header = image.atFileOffset(0);
        image.require(header, EHDR_SIZE, "the ELF header");
        if (image.u8(header) != 0x7f || image.u8(header + 1) != 'E' || image.u8(header + 2) != 'L'
                || image.u8(header + 3) != 'F') {
            throw image.error(header, String.format("not an ELF image: magic %02x %02x %02x %02x instead of 7f 45 4c 46",
                    image.u8(header), image.u8(header + 1), image.u8(header + 2), image.u8(header + 3)));
        }
        if (image.u8(header + 4) != ELFCLASS64 || image.u8(header + 5) != ELFDATA2LSB) {
            throw image.error(header + 4, String.format(
                    "EI_CLASS %d, EI_DATA %d: only 64-bit little-endian images (2, 1) are read",
                    image.u8(header + 4), image.u8(header + 5)));
        }
        int type = image.u16(header + 16);
        if (type != ET_DYN && type != ET_EXEC) {
            throw image.error(header + 16, String.format(
                    "e_type %d is neither ET_DYN (3) nor ET_EXEC (2): not a loadable module", type));
        }
        if (image.u16(header + 18) != EM_X86_64) {
            throw image.error(header + 18, String.format(
                    "e_machine %d is not EM_X86_64 (62)", image.u16(header + 18)));
        }
        if (image.u16(header + 54) != PHDR_SIZE) {
            throw image.error(header + 54, String.format(
                    "e_phentsize %d is not sizeof(Elf64_Phdr) (56)", image.u16(header + 54)));
        }
        long phoff = image.u64(header + 32);
        int phnum = image.u16(header + 56); // at most 0xffff: the table is bounded by 3.5 MiB
        long table = image.atFileOffset(phoff);
        image.require(table, (long) phnum * PHDR_SIZE, "the program headers (e_phnum " + phnum + ")");
        List<ElfLoad> loads = new ArrayList<>();
        long dynamicAddress = -1;
        long dynamicSize = 0;
        for (int i = 0; i < phnum; i++) {
            long ph = table + (long) i * PHDR_SIZE;
            long ptype = image.u32(ph);
            if (ptype == PT_LOAD) {
                loads.add(new ElfLoad(image.u64(ph + 16), image.u64(ph + 8), image.u64(ph + 32), image.u64(ph + 40), (int) image.u32(ph + 4)));
            } else if (ptype == PT_DYNAMIC && dynamicAddress == -1) {
                dynamicAddress = image.u64(ph + 16);
                dynamicSize = image.u64(ph + 32);
            }
        }
        if (dynamicAddress == -1) {
            throw image.error(table, "no PT_DYNAMIC program header: the image has no dynamic symbols");
        }
        return new ModuleHeaders(List.copyOf(loads), dynamicAddress, dynamicSize);
    }
}
