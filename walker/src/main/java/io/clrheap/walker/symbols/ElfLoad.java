package io.clrheap.walker.symbols;

import java.util.List;

/** A {@code PT_LOAD} of a module: {@code p_vaddr}, {@code p_offset}, {@code p_filesz}, {@code p_memsz}, {@code p_flags}. */
record ElfLoad(long vaddr, long offset, long filesz, long memsz, int flags) {

    /** {@code PF_W}: the segment is writable (the module's .data lies in one). */
    static final int PF_W = 2;

    boolean writable() {
        return (flags & PF_W) != 0;
    }

    /** True when the link-time range {@code [address, address + length)} is in this segment's file bytes. */
    boolean holdsInFile(long address, long length) {
        long in = address - vaddr;
        return Long.compareUnsigned(in, filesz) < 0 && Long.compareUnsigned(length, filesz - in) <= 0;
    }

    /**
     * How far an image mapped with file offset 0 at {@code base} is from its link-time addresses: the mapping of
     * offset 0 starts at base, and its link-time address is p_vaddr - p_offset of the PT_LOAD holding offset 0
     * (gABI "Base Address"): 0 in a shared object or PIE, the link address in an ET_EXEC.
     */
    static long bias(long base, List<ElfLoad> loads) {
        for (ElfLoad load : loads) {
            if (load.offset() == 0) {
                return base - load.vaddr();
            }
        }
        return loads.isEmpty() ? base : base - (loads.getFirst().vaddr() - loads.getFirst().offset());
    }
}
