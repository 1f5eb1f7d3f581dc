package io.clrheap.walker.symbols;

/**
 * The entries of a module's dynamic section that symbol lookup needs, as raw {@code d_ptr}/{@code d_val} values
 * (0 when absent). Tags: the System V gABI "Dynamic Section" ({@code DT_HASH} 4, {@code DT_STRTAB} 5,
 * {@code DT_SYMTAB} 6, {@code DT_STRSZ} 10, {@code DT_SYMENT} 11) and glibc {@code <elf.h>}
 * ({@code DT_GNU_HASH} 0x6ffffef5). Each entry is {@code Elf64_Dyn}: i64 d_tag, u64 d_un.
 */
record DynamicSection(long symtab, long strtab, long strsz, long gnuHash, long hash) {

    static final long DT_NULL = 0;
    static final long DT_HASH = 4;
    static final long DT_STRTAB = 5;
    static final long DT_SYMTAB = 6;
    static final long DT_STRSZ = 10;
    static final long DT_SYMENT = 11;
    static final long DT_GNU_HASH = 0x6ffffef5L;

    private static final int ENTRY_SIZE = 16;
    /** A cap on entries read: real dynamic sections have a few dozen (libcoreclr.so 9.0.1: 36). */
    static final long MAX_ENTRIES = 1L << 12;
    /** sizeof(Elf64_Sym). */
    static final int SYMENT = 24;

    static DynamicSection read(ImageBytes image, long location, long size) throws ModuleFormatException {
        long entries = Math.min(Long.divideUnsigned(size, ENTRY_SIZE), MAX_ENTRIES);
        if (entries == 0) {
            throw image.error(location, String.format("the dynamic section has p_filesz %d: no entries", size));
        }
        image.require(location, entries * ENTRY_SIZE, "the dynamic section");
        long symtab = 0;
        long strtab = 0;
        long strsz = 0;
        long gnuHash = 0;
        long hash = 0;
        for (long i = 0; i < entries; i++) {
            long at = location + i * ENTRY_SIZE;
            long tag = image.u64(at);
            long value = image.u64(at + 8);
            if (tag == DT_NULL) {
                break;
            } else if (tag == DT_SYMTAB) {
                symtab = value;
            } else if (tag == DT_STRTAB) {
                strtab = value;
            } else if (tag == DT_STRSZ) {
                strsz = value;
            } else if (tag == DT_GNU_HASH) {
                gnuHash = value;
            } else if (tag == DT_HASH) {
                hash = value;
            } else if (tag == DT_SYMENT && value != SYMENT) {
                throw image.error(at, String.format("DT_SYMENT is %d, not sizeof(Elf64_Sym) (24)", value));
            }
        }
        String missing = symtab == 0 ? "DT_SYMTAB" : strtab == 0 ? "DT_STRTAB" : strsz == 0 ? "DT_STRSZ"
                : gnuHash == 0 && hash == 0 ? "DT_GNU_HASH or DT_HASH" : null;
        if (missing != null) {
            throw image.error(location, "the dynamic section has no " + missing);
        }
        return new DynamicSection(symtab, strtab, strsz, gnuHash, hash);
    }
}
