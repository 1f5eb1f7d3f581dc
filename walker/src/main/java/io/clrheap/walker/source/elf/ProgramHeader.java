package io.clrheap.walker.source.elf;

import io.clrheap.walker.source.DumpFormatException;

/**
 * One {@code Elf64_Phdr} (gABI "Program Header"; 56 bytes: p_type@0, p_flags@4, p_offset@8, p_vaddr@16,
 * p_paddr@24, p_filesz@32, p_memsz@40, p_align@48), with the file offset it was read from for messages.
 */
record ProgramHeader(long at, int type, int flags, long offset, long vaddr, long filesz, long memsz) {

    static final int PT_LOAD = 1;
    static final int PT_NOTE = 4;

    static ProgramHeader read(CoreBytes file, long at) {
        return new ProgramHeader(at, file.s32(at), file.s32(at + 4), file.u64(at + 8), file.u64(at + 16),
                file.u64(at + 32), file.u64(at + 40));
    }

    /** Checks that the segment's file bytes lie inside the file. */
    void requireFileBytes(CoreBytes file) throws DumpFormatException {
        if (!file.inside(offset, filesz)) {
            throw file.error(at, String.format(
                    "the %s program header's p_offset 0x%x + p_filesz 0x%x runs past the end of the file (0x%x bytes)",
                    type == PT_NOTE ? "PT_NOTE" : "PT_LOAD", offset, filesz, file.size()));
        }
    }

    LoadSegment toLoadSegment(CoreBytes file) throws DumpFormatException {
        requireFileBytes(file);
        if (Long.compareUnsigned(filesz, memsz) > 0) {
            throw file.error(at, String.format(
                    "PT_LOAD at vaddr 0x%x has p_filesz 0x%x larger than p_memsz 0x%x", vaddr, filesz, memsz));
        }
        if (memsz != 0 && Long.compareUnsigned(vaddr + memsz, vaddr) <= 0) {
            throw file.error(at, String.format(
                    "PT_LOAD at vaddr 0x%x with p_memsz 0x%x wraps past the top of the address space", vaddr, memsz));
        }
        return new LoadSegment(vaddr, memsz, offset, filesz, flags);
    }
}
