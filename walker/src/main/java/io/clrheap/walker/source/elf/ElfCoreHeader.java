package io.clrheap.walker.source.elf;

import io.clrheap.walker.source.DumpFormatException;

/**
 * The fields of the {@code Elf64_Ehdr} of a core that the reader uses, validated. Offsets and values: the System V
 * gABI "ELF Header" and glibc {@code <elf.h>}; createdump's values: dotnet/runtime
 * src/coreclr/debug/createdump/dumpwriterelf.cpp.
 *
 * @param phoff file offset of the program header table ({@code e_phoff})
 * @param phnum number of program headers, after the PN_XNUM escape is resolved
 */
record ElfCoreHeader(long phoff, long phnum) {

    static final int EHDR_SIZE = 64;
    static final int PHDR_SIZE = 56;
    static final int SHDR_SIZE = 64;

    private static final int EI_CLASS = 4;
    private static final int EI_DATA = 5;
    private static final int ELFCLASS64 = 2;
    private static final int ELFDATA2LSB = 1;
    private static final int E_TYPE = 16;
    private static final int E_MACHINE = 18;
    private static final int E_PHOFF = 32;
    private static final int E_SHOFF = 40;
    private static final int E_PHENTSIZE = 54;
    private static final int E_PHNUM = 56;
    private static final int ET_CORE = 4;
    private static final int EM_X86_64 = 62;
    /** gABI "Extended program header numbering": e_phnum holds this and section header 0's sh_info the count. */
    private static final int PN_XNUM = 0xffff;
    /** Offset of sh_info in an Elf64_Shdr (gABI "Section Header"). */
    private static final int SH_INFO = 44;

    static ElfCoreHeader read(CoreBytes file, ElfCoreLimits limits) throws DumpFormatException {
        if (file.size() < EHDR_SIZE) {
            throw file.error(0, String.format(
                    "truncated ELF header: the file has 0x%x bytes, an Elf64_Ehdr needs 0x%x", file.size(), EHDR_SIZE));
        }
        if (file.u8(0) != 0x7f || file.u8(1) != 'E' || file.u8(2) != 'L' || file.u8(3) != 'F') {
            throw file.error(0, String.format("not an ELF file: magic %02x %02x %02x %02x instead of 7f 45 4c 46",
                    file.u8(0), file.u8(1), file.u8(2), file.u8(3)));
        }
        if (file.u8(EI_CLASS) != ELFCLASS64) {
            throw file.error(EI_CLASS, String.format(
                    "EI_CLASS is %d (%s); only ELFCLASS64 (2) cores are read", file.u8(EI_CLASS),
                    file.u8(EI_CLASS) == 1 ? "ELFCLASS32, a 32-bit file" : "unknown"));
        }
        if (file.u8(EI_DATA) != ELFDATA2LSB) {
            throw file.error(EI_DATA, String.format(
                    "EI_DATA is %d; only little-endian (ELFDATA2LSB, 1) cores are read", file.u8(EI_DATA)));
        }
        if (file.u16(E_TYPE) != ET_CORE) {
            throw file.error(E_TYPE, String.format(
                    "e_type is %d, not ET_CORE (4): this ELF file is not a core dump", file.u16(E_TYPE)));
        }
        if (file.u16(E_MACHINE) != EM_X86_64) {
            throw file.error(E_MACHINE, String.format(
                    "e_machine is %d, not EM_X86_64 (62): only x86-64 cores are read", file.u16(E_MACHINE)));
        }
        long phoff = file.u64(E_PHOFF);
        long phnum = file.u16(E_PHNUM);
        if (phnum == 0) {
            throw file.error(E_PHNUM, "e_phnum is 0: a core without program headers has no memory");
        }
        if (file.u16(E_PHENTSIZE) != PHDR_SIZE) {
            throw file.error(E_PHENTSIZE, String.format(
                    "e_phentsize is %d, not %d (sizeof(Elf64_Phdr))", file.u16(E_PHENTSIZE), PHDR_SIZE));
        }
        long phnumAt = E_PHNUM;
        if (phnum == PN_XNUM) {
            long shoff = file.u64(E_SHOFF);
            file.require(shoff, SHDR_SIZE, "section header 0 (e_phnum is PN_XNUM, so it holds the real count)");
            phnum = file.u32(shoff + SH_INFO);
            phnumAt = shoff + SH_INFO;
        }
        if (phnum > limits.maxProgramHeaders()) {
            throw file.error(phnumAt, String.format(
                    "the core declares %d program headers, more than the limit of %d", phnum, limits.maxProgramHeaders()));
        }
        long tableSize = phnum * PHDR_SIZE; // phnum < 2^32, so no overflow
        if (!file.inside(phoff, tableSize)) {
            throw file.error(phnumAt, String.format(
                    "e_phnum = %d program headers at e_phoff 0x%x end at 0x%x, past the end of the file (0x%x bytes)",
                    phnum, phoff, phoff + tableSize, file.size()));
        }
        return new ElfCoreHeader(phoff, phnum);
    }
}
