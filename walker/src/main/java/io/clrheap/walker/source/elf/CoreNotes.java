package io.clrheap.walker.source.elf;

import io.clrheap.walker.source.RegisterSet;

import io.clrheap.walker.source.DumpFormatException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.clrheap.walker.source.TypeNameSidecar;
import io.clrheap.walker.source.TypeNameTable;

/**
 * What a core's notes say about the process: its file mappings ({@code NT_FILE}), threads ({@code NT_PRSTATUS})
 * and auxiliary vector ({@code NT_AUXV}).
 *
 * <p>Note record: {@code n_namesz, n_descsz, n_type} (u32 each), the name padded to 4, the desc padded to 4
 * (gABI "Note Section"; the 4-byte padding of 64-bit cores: linux fs/binfmt_elf.c writenote). Only notes owned by
 * "CORE" are read: that owner carries these types in the kernel's cores (linux fs/binfmt_elf.c fill_note calls)
 * and createdump's (dotnet/runtime src/coreclr/debug/createdump/dumpwriterelf.cpp); the "LINUX" owner reuses
 * small type numbers for other things (NT_386_TLS 0x200 ...).
 */
record CoreNotes(List<MappedFile> mappedFiles, List<CoreThread> threads, Map<Long, Long> auxv, Map<Long, String> typeNames) {

    static final int NT_PRSTATUS = 1;
    static final int NT_AUXV = 6;
    static final int NT_FILE = 0x46494c45;

    private static final int NOTE_HEADER = 12;
    /** sizeof(struct elf_prstatus) on x86-64 (glibc sys/procfs.h; linux include/linux/elfcore.h). */
    private static final int PRSTATUS_SIZE = 336;
    /** pr_pid: the thread id (linux fs/binfmt_elf.c fill_prstatus: pr_pid = task_pid_vnr(p)); checked with gdb. */
    private static final int PR_PID = 32;
    /** pr_reg, a struct user_regs_struct (linux arch/x86/include/asm/user_64.h), follows four struct timevals. */
    private static final int PR_REG = 112;
    private static final int NT_FILE_HEADER = 16;
    private static final int NT_FILE_ENTRY = 24;
    /** An auxv entry is {u64 a_type; u64 a_val}; a_type 0 (AT_NULL) ends the vector (glibc elf.h, Elf64_auxv_t). */
    private static final int AUXV_ENTRY = 16;
    private static final long AT_NULL = 0;

    static CoreNotes parse(CoreBytes file, List<ProgramHeader> noteSegments, ElfCoreLimits limits)
            throws DumpFormatException {
        long total = 0;
        for (ProgramHeader segment : noteSegments) {
            segment.requireFileBytes(file);
            total += segment.filesz(); // each is below the file size, so the sum of < 2^20 of them cannot overflow
            if (Long.compareUnsigned(total, limits.maxNoteBytes()) > 0) {
                throw file.error(segment.at(), String.format(
                        "the PT_NOTE segments hold 0x%x bytes or more, more than the limit of 0x%x",
                        total, limits.maxNoteBytes()));
            }
        }
        Builder builder = new Builder(file, limits);
        for (ProgramHeader segment : noteSegments) {
            builder.readSegment(segment.offset(), segment.offset() + segment.filesz());
        }
        return builder.build();
    }

    private static long align4(long value) {
        return (value + 3) & ~3L;
    }

    private static final class Builder {
        private final CoreBytes file;
        private final ElfCoreLimits limits;
        private final List<MappedFile> mappedFiles = new ArrayList<>();
        private final List<CoreThread> threads = new ArrayList<>();
        private Map<Long, Long> auxv;
        private TypeNameTable typeNames;

        Builder(CoreBytes file, ElfCoreLimits limits) {
            this.file = file;
            this.limits = limits;
        }

        void readSegment(long start, long end) throws DumpFormatException {
            long at = start;
            // every note takes at least 12 bytes, so this loop ends; a tail shorter than a note header is padding
            while (end - at >= NOTE_HEADER) {
                long namesz = file.u32(at);
                long descsz = file.u32(at + 4);
                int type = file.s32(at + 8);
                long name = at + NOTE_HEADER;
                long desc = name + align4(namesz);
                if (align4(namesz) > end - name || descsz > end - desc) {
                    throw file.error(at, String.format(
                            "the note of type 0x%x with n_namesz %d and n_descsz %d runs past the end of its PT_NOTE "
                                    + "segment at 0x%x", type, namesz, descsz, end));
                }
                if (isOwner(name, namesz, TypeNameSidecar.ELF_NOTE_OWNER) && type == TypeNameSidecar.ELF_NOTE_TYPE) {
                    readTypeNames(desc, descsz);
                } else if (isCore(name, namesz)) {
                    switch (type) {
                        case NT_FILE -> readFiles(at, desc, descsz);
                        case NT_PRSTATUS -> readThread(at, desc, descsz);
                        case NT_AUXV -> readAuxv(desc, descsz);
                        default -> { }
                    }
                }
                at = Math.min(end, desc + align4(descsz));
            }
        }

        /** Whether the note's owner is {@code owner}, with its NUL. */
        private boolean isOwner(long name, long namesz, String owner) {
            if (namesz != owner.length() + 1 || file.u8(name + owner.length()) != 0) {
                return false;
            }
            for (int i = 0; i < owner.length(); i++) {
                if (file.u8(name + i) != owner.charAt(i)) {
                    return false;
                }
            }
            return true;
        }

        /** clrheap's type-name sidecar (fixture dumps only), parsed from the mapped note; bounded by the note limit already checked. */
        private void readTypeNames(long desc, long descsz) throws DumpFormatException {
            if (typeNames != null) {
                return;
            }
            try {
                typeNames = TypeNameSidecar.parse(file.segment().asSlice(desc, descsz),
                        String.format("the clrheap type-name note at file offset 0x%x", desc));
            } catch (IllegalArgumentException e) {
                long at = e.getCause() instanceof TypeNameTable.MalformedLineException m ? desc + m.offset() : desc;
                throw file.error(at, e.getMessage());
            }
        }

        private boolean isCore(long name, long namesz) {
            // "CORE" with its NUL; some writers omit the NUL (namesz 4)
            return (namesz == 5 || namesz == 4) && file.u8(name) == 'C' && file.u8(name + 1) == 'O'
                    && file.u8(name + 2) == 'R' && file.u8(name + 3) == 'E' && (namesz == 4 || file.u8(name + 4) == 0);
        }

        private void readFiles(long note, long desc, long descsz) throws DumpFormatException {
            if (descsz < NT_FILE_HEADER) {
                throw file.error(note, String.format(
                        "the NT_FILE note has n_descsz %d, less than its 16-byte count and page size", descsz));
            }
            long count = file.u64(desc);
            long pageSize = file.u64(desc + 8);
            long room = (descsz - NT_FILE_HEADER) / NT_FILE_ENTRY;
            if (Long.compareUnsigned(count, room) > 0) {
                throw file.error(desc, String.format(
                        "the NT_FILE note declares %s mappings, but its n_descsz %d holds at most %d entries",
                        Long.toUnsignedString(count), descsz, room));
            }
            if (mappedFiles.size() + count > limits.maxMappedFiles()) {
                throw file.error(desc, String.format(
                        "the NT_FILE note declares %d mappings, more than the limit of %d", count, limits.maxMappedFiles()));
            }
            if (count > 0 && pageSize == 0) {
                throw file.error(desc + 8, "the NT_FILE note has page_size 0");
            }
            long entries = desc + NT_FILE_HEADER;
            long descEnd = desc + descsz;
            long path = entries + count * NT_FILE_ENTRY;
            for (long i = 0; i < count; i++) {
                long entry = entries + i * NT_FILE_ENTRY;
                long start = file.u64(entry);
                long end = file.u64(entry + 8);
                long pageOffset = file.u64(entry + 16);
                if (Long.compareUnsigned(end, start) < 0) {
                    throw file.error(entry, String.format(
                            "NT_FILE entry %d ends at 0x%x, below its start 0x%x", i, end, start));
                }
                if (Math.unsignedMultiplyHigh(pageOffset, pageSize) != 0 || pageOffset * pageSize < 0) {
                    throw file.error(entry + 16, String.format(
                            "NT_FILE entry %d has page offset 0x%x, which times page_size 0x%x overflows",
                            i, pageOffset, pageSize));
                }
                long nul = file.indexOfNul(path, descEnd);
                if (nul < 0) {
                    throw file.error(path, String.format(
                            "NT_FILE path %d of %d has no terminating NUL before the note ends at 0x%x",
                            i, count, descEnd));
                }
                mappedFiles.add(new MappedFile(start, end, pageOffset * pageSize, file.string(path, nul)));
                path = nul + 1;
            }
            // createdump pads the desc with zeros counted in n_descsz (gdb warns "filename area is too big"): ignored
        }

        private void readThread(long note, long desc, long descsz) throws DumpFormatException {
            if (descsz < PRSTATUS_SIZE) {
                throw file.error(note, String.format(
                        "the NT_PRSTATUS note has n_descsz %d, less than sizeof(elf_prstatus) on x86-64 (%d)",
                        descsz, PRSTATUS_SIZE));
            }
            long[] userRegs = new long[RegisterSet.USER_REGS_WORDS];
            for (int r = 0; r < userRegs.length; r++) {
                userRegs[r] = file.u64(desc + PR_REG + 8L * r);
            }
            threads.add(new CoreThread(file.s32(desc + PR_PID), RegisterSet.fromUserRegs(userRegs)));
        }

        private void readAuxv(long desc, long descsz) {
            if (auxv != null) {
                return; // a process has one auxiliary vector; a second note would be a writer's duplicate
            }
            Map<Long, Long> entries = new LinkedHashMap<>();
            for (long at = desc; at + AUXV_ENTRY <= desc + descsz; at += AUXV_ENTRY) {
                long type = file.u64(at);
                if (type == AT_NULL) {
                    break;
                }
                entries.putIfAbsent(type, file.u64(at + 8));
            }
            auxv = Collections.unmodifiableMap(entries);
        }

        CoreNotes build() {
            return new CoreNotes(List.copyOf(mappedFiles), List.copyOf(threads), auxv == null ? Map.of() : auxv,
                    typeNames == null ? TypeNameTable.empty() : typeNames);
        }
    }
}
