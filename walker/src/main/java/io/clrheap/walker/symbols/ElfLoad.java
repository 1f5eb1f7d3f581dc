package io.clrheap.walker.symbols;

/** A {@code PT_LOAD} of a module: {@code p_vaddr}, {@code p_offset}, {@code p_filesz}, {@code p_memsz}. */
record ElfLoad(long vaddr, long offset, long filesz, long memsz) {

    /** True when the link-time range {@code [address, address + length)} is in this segment's file bytes. */
    boolean holdsInFile(long address, long length) {
        long in = address - vaddr;
        return Long.compareUnsigned(in, filesz) < 0 && Long.compareUnsigned(length, filesz - in) <= 0;
    }
}
