package io.clrheap.generator.minidump;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * MemoryInfoListStream (16), what MiniDumpWithFullMemoryInfo adds: MINIDUMP_MEMORY_INFO_LIST, a 16-byte header
 * (SizeOfHeader u32 = 16, SizeOfEntry u32 = 48, NumberOfEntries u64), then one MINIDUMP_MEMORY_INFO of 48 bytes per
 * region: BaseAddress @0, AllocationBase @8, AllocationProtect @16 (u32), 4 bytes of alignment, RegionSize @24, State
 * @32, Protect @36, Type @40 (u32 each), 4 bytes of alignment. Sizes and offsets: Microsoft's minidumpapiset.h,
 * mingw-w64's dbghelp.h (checked with x86_64-w64-mingw32-gcc) and LLVM's Minidump.h (MemoryInfoListHeader,
 * MemoryInfo); docs/reference/dump-formats.md section 3.4.
 */
final class MemoryInfoList {

    static final int HEADER_SIZE = 16;
    static final int ENTRY_SIZE = 48;

    private MemoryInfoList() {
    }

    static int size(int regions) {
        return HEADER_SIZE + ENTRY_SIZE * regions;
    }

    static byte[] bytes(List<MemoryRegion> regions) {
        ByteBuffer b = ByteBuffer.allocate(size(regions.size())).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(HEADER_SIZE).putInt(ENTRY_SIZE).putLong(regions.size());
        for (MemoryRegion r : regions) {
            b.putLong(r.start()).putLong(r.allocationBase()).putInt(r.allocationProtect()).putInt(0);
            b.putLong(r.size()).putInt(r.state()).putInt(r.protect()).putInt(r.type()).putInt(0);
        }
        return b.array();
    }
}
