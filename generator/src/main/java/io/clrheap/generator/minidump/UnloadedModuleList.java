package io.clrheap.generator.minidump;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * UnloadedModuleListStream (14), what MiniDumpWithUnloadedModules adds: MINIDUMP_UNLOADED_MODULE_LIST, a 12-byte
 * header (SizeOfHeader = 12, SizeOfEntry = 24, NumberOfEntries; u32 each), then MINIDUMP_UNLOADED_MODULE entries of 24
 * bytes (BaseOfImage u64, SizeOfImage, CheckSum, TimeDateStamp, ModuleNameRva). Sizes: Microsoft's minidumpapiset.h
 * and mingw-w64's dbghelp.h (checked with x86_64-w64-mingw32-gcc). The emulated process never unloaded a module: no
 * entries.
 */
final class UnloadedModuleList {

    static final int HEADER_SIZE = 12;
    static final int ENTRY_SIZE = 24;

    private UnloadedModuleList() {
    }

    static byte[] bytes() {
        return ByteBuffer.allocate(HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN).putInt(HEADER_SIZE).putInt(ENTRY_SIZE).putInt(0).array();
    }
}
