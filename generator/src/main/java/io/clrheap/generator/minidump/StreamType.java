package io.clrheap.generator.minidump;

/**
 * The stream types a clrheap minidump holds (MINIDUMP_STREAM_TYPE; docs/reference/dump-formats.md section 3.3, from
 * llvm/llvm-project llvm/include/llvm/BinaryFormat/MinidumpConstants.def, confirmed by mingw-w64's dbghelp.h and
 * Microsoft's minidumpapiset.h), and clrheap's own.
 */
final class StreamType {

    static final int THREAD_LIST = 3;
    static final int MODULE_LIST = 4;
    static final int SYSTEM_INFO = 7;
    static final int MEMORY64_LIST = 9;
    static final int HANDLE_DATA = 12;
    static final int UNLOADED_MODULE_LIST = 14;
    static final int MISC_INFO = 15;
    static final int MEMORY_INFO_LIST = 16;
    static final int THREAD_INFO_LIST = 17;
    /**
     * clrheap's type names, a user stream: above LastReservedStream (0xffff), the bytes {@code 'clrh'} read as a
     * big-endian number, so that a hex dump of the directory shows what it is.
     */
    static final int TYPE_NAMES = 0x636c7268;

    private StreamType() {
    }
}
