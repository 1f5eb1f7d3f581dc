package io.clrheap.walker.source.minidump;

/**
 * The stream types this reader knows (MINIDUMP_STREAM_TYPE; llvm/llvm-project
 * llvm/include/llvm/BinaryFormat/MinidumpConstants.def, confirmed by dbghelp.h), and clrheap's own.
 */
public final class StreamType {

    static final long UNUSED = 0;
    static final long THREAD_LIST = 3;
    static final long MODULE_LIST = 4;
    static final long MEMORY_LIST = 5;
    static final long SYSTEM_INFO = 7;
    static final long MEMORY64_LIST = 9;
    static final long MISC_INFO = 15;
    /** clrheap's type names: a user stream ({@code 'clrh'}, above LastReservedStream 0xffff). */
    static final long TYPE_NAMES = 0x636c7268L;

    private StreamType() {
    }

    /** The stream's name, for messages: {@code Memory64ListStream}, {@code stream 0x47670009}; public for the golden corpus's diffs. */
    public static String name(long type) {
        return switch ((int) type) {
            case 3 -> "ThreadListStream";
            case 4 -> "ModuleListStream";
            case 5 -> "MemoryListStream";
            case 7 -> "SystemInfoStream";
            case 9 -> "Memory64ListStream";
            case 15 -> "MiscInfoStream";
            case 0x636c7268 -> "type-name stream 'clrh'";
            default -> String.format("stream 0x%x", type);
        };
    }
}
