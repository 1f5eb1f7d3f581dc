package io.clrheap.generator.minidump;

import io.clrheap.memory.Memory;
import java.util.Optional;

/**
 * The CodeView record of a PE image mapped in the process, found as dbghelp finds what it copies into a module's
 * CvRecord: the debug data directory (data directory 6 of the PE32+ optional header, at +112 + 6 × 8), its
 * IMAGE_DEBUG_DIRECTORY entries of 28 bytes (Type at 12, SizeOfData at 16, AddressOfRawData at 20), the first of type
 * IMAGE_DEBUG_TYPE_CODEVIEW (2). Offsets: Microsoft, "PE Format", "Optional Header Data Directories" and "Debug
 * Directory (Image Only)"; sizes checked with mingw-w64's winnt.h.
 */
final class ImageCodeView {

    private static final int DEBUG_DIRECTORY = 6;
    private static final int ENTRY_SIZE = 28;
    private static final int CODEVIEW = 2;
    /** More than any CodeView record holds: a path of MAX_PATH UTF-8 characters and the RSDS header. */
    private static final int MAX_RECORD = 4096;

    private ImageCodeView() {
    }

    /** The record's bytes, or empty when the image has no debug directory or no CodeView entry. */
    static Optional<byte[]> of(Memory memory, long base) {
        long optional = base + memory.readU32(base + 0x3c) + 24;
        if (memory.readU32(optional + 108) <= DEBUG_DIRECTORY) { // NumberOfRvaAndSizes
            return Optional.empty();
        }
        long rva = memory.readU32(optional + 112 + 8L * DEBUG_DIRECTORY);
        long size = memory.readU32(optional + 112 + 8L * DEBUG_DIRECTORY + 4);
        for (long at = 0; rva != 0 && at + ENTRY_SIZE <= size; at += ENTRY_SIZE) {
            long entry = base + rva + at;
            long length = memory.readU32(entry + 16);
            if (memory.readU32(entry + 12) == CODEVIEW && length > 0 && length <= MAX_RECORD) {
                return Optional.of(memory.readBytes(base + memory.readU32(entry + 20), (int) length));
            }
        }
        return Optional.empty();
    }
}
