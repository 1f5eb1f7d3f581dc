package io.clrheap.generator.minidump;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * HandleDataStream (12), what MiniDumpWithHandleData adds: MINIDUMP_HANDLE_DATA_STREAM, a 16-byte header
 * (SizeOfHeader = 16, SizeOfDescriptor, NumberOfDescriptors, Reserved; u32 each), then the descriptors. The
 * descriptor size says which of the two forms follows: MINIDUMP_HANDLE_DESCRIPTOR (32 bytes) or
 * MINIDUMP_HANDLE_DESCRIPTOR_2 (40 bytes: Handle u64, TypeNameRva, ObjectNameRva, Attributes, GrantedAccess,
 * HandleCount, PointerCount, ObjectInfoRva, Reserved0), which Microsoft's minidumpapiset.h names the latest
 * (MINIDUMP_HANDLE_DESCRIPTOR_N) and this stream declares (sizes checked with x86_64-w64-mingw32-gcc). The emulated
 * process models no operating system handles, so the list is empty: a valid stream that says the dump was asked for
 * handles and holds none.
 */
final class HandleDataStream {

    static final int HEADER_SIZE = 16;
    static final int DESCRIPTOR_2_SIZE = 40;

    private HandleDataStream() {
    }

    static byte[] bytes() {
        return ByteBuffer.allocate(HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN).putInt(HEADER_SIZE).putInt(DESCRIPTOR_2_SIZE)
                .putInt(0).putInt(0).array();
    }
}
