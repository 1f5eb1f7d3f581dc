package io.clrheap.generator.minidump;

/**
 * The stream types a clrheap minidump holds (MINIDUMP_STREAM_TYPE; docs/reference/dump-formats.md section 3.3, from
 * llvm/llvm-project llvm/include/llvm/BinaryFormat/MinidumpConstants.def, confirmed by dbghelp.h), and clrheap's own.
 */
final class StreamType {

    static final int THREAD_LIST = 3;
    static final int MODULE_LIST = 4;
    static final int SYSTEM_INFO = 7;
    static final int MEMORY64_LIST = 9;
    static final int MISC_INFO = 15;
    /**
     * clrheap's type names, a user stream: above LastReservedStream (0xffff), the bytes {@code 'clrh'} read as a
     * big-endian number, so that a hex dump of the directory shows what it is.
     */
    static final int TYPE_NAMES = 0x636c7268;

    private StreamType() {
    }
}
