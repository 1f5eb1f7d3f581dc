package io.clrheap.generator.minidump;

/**
 * One region of the process's address space as VirtualQuery describes it, and as MINIDUMP_MEMORY_INFO holds it: pages
 * of one allocation with one state, protection and type. Constants: Microsoft's MEMORY_BASIC_INFORMATION documentation
 * (learn.microsoft.com/windows/win32/api/winnt/ns-winnt-memory_basic_information) and "Memory Protection Constants",
 * the same values as LLVM's MinidumpConstants.def (HANDLE_MDMP_PROTECT, HANDLE_MDMP_MEMSTATE, HANDLE_MDMP_MEMTYPE).
 * For a free region the allocation base, allocation protection, protection and type are undefined, and for a reserved
 * one the protection (the same documentation); clrheap writes 0 there, and PAGE_NOACCESS as a free region's protection.
 *
 * @param start             BaseAddress
 * @param size              RegionSize
 * @param allocationBase    AllocationBase: the start of the VirtualAlloc (or image mapping) the region belongs to
 * @param allocationProtect AllocationProtect: the protection the allocation was made with
 * @param state             MEM_COMMIT, MEM_RESERVE or MEM_FREE
 * @param protect           Protect: a PAGE_* constant
 * @param type              MEM_IMAGE, MEM_MAPPED, MEM_PRIVATE; 0 for a free region
 */
record MemoryRegion(long start, long size, long allocationBase, int allocationProtect, int state, int protect, int type) {

    static final int PAGE_NOACCESS = 0x01;
    static final int PAGE_READONLY = 0x02;
    static final int PAGE_READWRITE = 0x04;
    static final int PAGE_EXECUTE = 0x10;
    static final int PAGE_EXECUTE_READ = 0x20;
    static final int PAGE_EXECUTE_READWRITE = 0x40;
    /** What VirtualQuery reports as an image mapping's AllocationProtect: the most any section may become. */
    static final int PAGE_EXECUTE_WRITECOPY = 0x80;
    static final int MEM_COMMIT = 0x1000;
    static final int MEM_RESERVE = 0x2000;
    static final int MEM_FREE = 0x10000;
    static final int MEM_PRIVATE = 0x20000;
    static final int MEM_MAPPED = 0x40000;
    static final int MEM_IMAGE = 0x100_0000;

    long end() {
        return start + size;
    }

    boolean committed() {
        return state == MEM_COMMIT;
    }

    static MemoryRegion free(long start, long end) {
        return new MemoryRegion(start, end - start, 0, 0, MEM_FREE, PAGE_NOACCESS, 0);
    }
}
