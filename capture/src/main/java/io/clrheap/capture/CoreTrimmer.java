package io.clrheap.capture;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Trims a full ELF core of a .NET process (as the runtime's createdump writes it) to what a heap walker reads, and
 * blanks the process environment in it. Kept: the ELF header, every program header and every note; the bytes of
 * each {@code PT_LOAD} that is anonymous memory, writable, or a non-executable mapping of the runtime module
 * ({@code libcoreclr.so}, or the main executable of a single-file host). A dropped mapping keeps its program header
 * with {@code p_filesz = 0}. The environment: the {@code KEY=VALUE} strings the kernel put on the initial stack
 * (found through the auxiliary vector: envp[] ends where auxv starts) are overwritten with zeros, byte for byte, so
 * nothing moves.
 *
 * <p>The output is written in one pass: header, program headers and notes where they were, then the kept memory in
 * program-header order at page-aligned offsets (gABI: {@code p_offset ≡ p_vaddr mod p_align} is kept).
 *
 * <p>Long because trimming is one streaming pass: choosing the kept ranges, blanking the environment and rewriting the
 * core share the parsed program headers and the output offsets.
 */
public final class CoreTrimmer {

    static final int PT_LOAD = 1;
    static final int PT_NOTE = 4;
    static final int PF_X = 1;
    static final int PF_W = 2;
    static final int NT_AUXV = 6;
    static final int NT_FILE = 0x46494c45;
    static final long AT_NULL = 0;
    static final long AT_PHDR = 3;
    static final long AT_ENTRY = 9;
    static final long AT_EXECFN = 31;
    static final long PAGE = 0x1000;
    /** Bounds on what a core may declare before anything is allocated for it. */
    static final int MAX_PROGRAM_HEADERS = 1 << 20;
    static final long MAX_NOTES_BYTES = 256L << 20;
    static final long MAX_STACK_BYTES = 256L << 20;

    private CoreTrimmer() {
    }

    /** What a trim kept, dropped and blanked. */
    public record Result(int keptSegments, int droppedSegments, long keptBytes, long droppedBytes, String runtimeModule, int environmentStrings,
            long environmentBytes, int environmentCopies, long environmentCopyBytes) {

        public String describe() {
            return String.format(Locale.ROOT,
                    "kept %d mappings (%,d bytes), dropped %d (%,d bytes); runtime module %s; environment: %d strings (%,d bytes) blanked on the stack, %d copies (%,d bytes) elsewhere",
                    keptSegments, keptBytes, droppedSegments, droppedBytes, runtimeModule, environmentStrings, environmentBytes, environmentCopies,
                    environmentCopyBytes);
        }
    }

    /** Writes the trimmed core of {@code core} to {@code out}. */
    public static Result trim(Path core, OutputStream out) throws IOException {
        try (FileChannel ch = FileChannel.open(core, StandardOpenOption.READ)) {
            return new Trim(core, ch).run(out);
        }
    }

    private record Phdr(int index, int type, int flags, long offset, long vaddr, long filesz, long memsz, long align) {
        boolean contains(long address) {
            return Long.compareUnsigned(address, vaddr) >= 0 && Long.compareUnsigned(address - vaddr, filesz) < 0;
        }
    }

    private record FileMapping(long start, long end, String path) {
        boolean overlaps(long s, long e) {
            return Long.compareUnsigned(s, end) < 0 && Long.compareUnsigned(start, e) < 0;
        }
    }

    private static final class Trim {
        private final Path file;
        private final FileChannel ch;
        private final DumpFileReads<CoreFormatError> reads;
        private final long size;

        Trim(Path file, FileChannel ch) throws IOException {
            this.file = file;
            this.ch = ch;
            this.reads = new DumpFileReads<>(file, ch, CoreFormatError::new);
            this.size = reads.size();
        }

        private CoreFormatError bad(long offset, String what) {
            return reads.bad(offset, what);
        }

        private ByteBuffer read(long offset, long length, String what) throws IOException {
            return reads.read(offset, length, what);
        }

        Result run(OutputStream out) throws IOException {
            ByteBuffer eh = read(0, 64, "the ELF header");
            if (eh.getInt(0) != 0x464c457f || eh.get(4) != 2 || eh.get(5) != 1 || eh.getShort(16) != 4 || eh.getShort(18) != 62) {
                throw bad(0, "not an ELF64 little-endian x86-64 core (ET_CORE, EM_X86_64)");
            }
            long phoff = eh.getLong(0x20);
            long shoff = eh.getLong(0x28);
            int phentsize = Short.toUnsignedInt(eh.getShort(0x36));
            int phnum = Short.toUnsignedInt(eh.getShort(0x38));
            int shentsize = Short.toUnsignedInt(eh.getShort(0x3a));
            int shnum = Short.toUnsignedInt(eh.getShort(0x3c));
            if (phentsize != 56) {
                throw bad(0x36, "e_phentsize " + phentsize + ", not 56");
            }
            if (phnum == 0xffff) { // PN_XNUM: the count is section header 0's sh_info
                if (shoff == 0 || shentsize < 64) {
                    throw bad(0x38, "e_phnum is PN_XNUM but there is no section header 0");
                }
                phnum = read(shoff, 64, "section header 0").getInt(0x2c);
            }
            if (phnum < 0 || phnum > MAX_PROGRAM_HEADERS) {
                throw bad(0x38, "declares " + Integer.toUnsignedString(phnum) + " program headers (at most " + MAX_PROGRAM_HEADERS + ")");
            }
            ByteBuffer ph = read(phoff, (long) phnum * 56, "the program headers");
            List<Phdr> phdrs = new ArrayList<>(phnum);
            for (int i = 0; i < phnum; i++) {
                int o = i * 56;
                phdrs.add(new Phdr(i, ph.getInt(o), ph.getInt(o + 4), ph.getLong(o + 8), ph.getLong(o + 16), ph.getLong(o + 32), ph.getLong(o + 40),
                        ph.getLong(o + 48)));
            }
            // notes: NT_FILE and NT_AUXV
            List<FileMapping> files = new ArrayList<>();
            List<long[]> auxv = new ArrayList<>();
            long notesTotal = 0;
            for (Phdr p : phdrs) {
                if (p.type() != PT_NOTE) {
                    continue;
                }
                notesTotal += p.filesz();
                if (notesTotal > MAX_NOTES_BYTES) {
                    throw bad(p.offset(), "more than " + MAX_NOTES_BYTES + " bytes of notes");
                }
                notes(read(p.offset(), p.filesz(), "a PT_NOTE segment"), p.offset(), files, auxv);
            }
            String runtime = runtimeModule(files, auxv);
            // which loads keep their bytes
            List<Phdr> loads = phdrs.stream().filter(p -> p.type() == PT_LOAD).toList();
            boolean[] keep = new boolean[phnum];
            int kept = 0;
            int dropped = 0;
            long keptBytes = 0;
            long droppedBytes = 0;
            for (Phdr p : loads) {
                boolean k = keeps(p, files, runtime);
                keep[p.index()] = k;
                if (p.filesz() == 0) {
                    continue;
                }
                if (p.offset() < 0 || p.filesz() < 0 || p.offset() > size || p.filesz() > size - p.offset()) {
                    throw bad(phoff + 56L * p.index(), String.format(Locale.ROOT, "PT_LOAD at 0x%x: its %d bytes at file offset 0x%x lie outside the file of %d bytes",
                            p.vaddr(), p.filesz(), p.offset(), size));
                }
                if (k) {
                    kept++;
                    keptBytes += p.filesz();
                } else {
                    dropped++;
                    droppedBytes += p.filesz();
                }
            }
            List<BlankRange> blanks = new ArrayList<>();
            List<byte[]> envValues = new ArrayList<>();
            int envStrings = environment(phdrs, auxv, blanks, envValues);
            EnvironmentCopies copies = new EnvironmentCopies(envValues);
            blanks.forEach(b -> copies.alreadyBlanked(b.fileOffset()));
            long stackEnvBytes = blanks.stream().mapToLong(BlankRange::length).sum();
            // the new layout: everything before the first memory byte stays in place (ELF header, program headers,
            // notes and section headers, as createdump writes them); memory follows, page-aligned
            long prefix = size;
            for (Phdr p : loads) {
                if (p.filesz() > 0) {
                    prefix = Math.min(prefix, p.offset());
                }
            }
            for (Phdr p : phdrs) {
                if (p.type() != PT_LOAD && p.filesz() > 0 && p.offset() + p.filesz() > prefix) {
                    throw bad(p.offset(), "a non-PT_LOAD segment (type " + p.type() + ") lies after the memory; not a createdump core layout");
                }
            }
            if (phoff + 56L * phnum > prefix || (shoff != 0 && shoff + (long) Math.max(1, shnum) * shentsize > prefix)) {
                throw bad(phoff, "the program or section headers lie after the memory; not a createdump core layout");
            }
            long[] newOffset = new long[phnum];
            long at = prefix;
            for (Phdr p : loads) {
                if (keep[p.index()] && p.filesz() > 0) {
                    at = alignUp(at, p.vaddr());
                    newOffset[p.index()] = at;
                    at += p.filesz();
                } else {
                    newOffset[p.index()] = at;
                }
            }
            ByteBuffer head = read(0, prefix, "the headers and notes");
            for (Phdr p : loads) {
                int o = (int) (phoff + 56L * p.index());
                head.putLong(o + 8, newOffset[p.index()]);
                if (!keep[p.index()]) {
                    head.putLong(o + 32, 0);
                }
            }
            out.write(head.array(), 0, head.limit());
            long written = prefix;
            blanks.sort(Comparator.comparingLong(BlankRange::fileOffset));
            BlankingCopy copier = new BlankingCopy(ch, file.toString(), blanks, copies);
            for (Phdr p : loads) {
                if (!keep[p.index()] || p.filesz() == 0) {
                    continue;
                }
                long pad = newOffset[p.index()] - written;
                copier.zeros(out, pad);
                copier.copy(out, p.offset(), p.filesz());
                written = newOffset[p.index()] + p.filesz();
            }
            out.flush();
            return new Result(kept, dropped, keptBytes, droppedBytes, runtime == null ? "(not found)" : runtime, envStrings, stackEnvBytes,
                    copies.found(), copies.bytes());
        }

        private static long alignUp(long at, long vaddr) {
            long want = vaddr & (PAGE - 1);
            long a = (at & ~(PAGE - 1)) + want;
            return a < at ? a + PAGE : a;
        }

        private void notes(ByteBuffer n, long base, List<FileMapping> files, List<long[]> auxv) throws CoreFormatError {
            int pos = 0;
            while (pos + 12 <= n.limit()) {
                long namesz = Integer.toUnsignedLong(n.getInt(pos));
                long descsz = Integer.toUnsignedLong(n.getInt(pos + 4));
                int type = n.getInt(pos + 8);
                long nameEnd = pos + 12 + ((namesz + 3) & ~3L);
                long descEnd = nameEnd + ((descsz + 3) & ~3L);
                if (nameEnd > n.limit() || nameEnd + descsz > n.limit()) {
                    throw bad(base + pos, "a note of " + namesz + " + " + descsz + " bytes runs past its PT_NOTE segment");
                }
                ByteBuffer desc = n.slice((int) nameEnd, (int) descsz).order(ByteOrder.LITTLE_ENDIAN);
                if (type == NT_FILE) {
                    fileNote(desc, base + nameEnd, files);
                } else if (type == NT_AUXV) {
                    for (int i = 0; i + 16 <= desc.limit(); i += 16) {
                        auxv.add(new long[] {desc.getLong(i), desc.getLong(i + 8)});
                    }
                }
                pos = (int) Math.min(descEnd, n.limit());
            }
        }

        private void fileNote(ByteBuffer d, long at, List<FileMapping> files) throws CoreFormatError {
            if (d.limit() < 16) {
                throw bad(at, "NT_FILE of " + d.limit() + " bytes");
            }
            long count = d.getLong(0);
            if (count < 0 || count > (d.limit() - 16) / 24) {
                throw bad(at, "NT_FILE declares " + count + " mappings; its " + d.limit() + " bytes hold at most " + (d.limit() - 16) / 24);
            }
            int names = (int) (16 + count * 24);
            for (int i = 0; i < count; i++) {
                int end = names;
                while (end < d.limit() && d.get(end) != 0) {
                    end++;
                }
                if (end >= d.limit()) {
                    throw bad(at + names, "NT_FILE's path " + i + " of " + count + " has no terminating NUL");
                }
                byte[] path = new byte[end - names];
                d.get(names, path);
                files.add(new FileMapping(d.getLong(16 + i * 24), d.getLong(24 + i * 24), new String(path, StandardCharsets.UTF_8)));
                names = end + 1;
            }
        }

        /** libcoreclr.so when mapped; otherwise the main executable (the mapping holding AT_PHDR or AT_ENTRY): a single-file host. */
        private static String runtimeModule(List<FileMapping> files, List<long[]> auxv) {
            for (FileMapping f : files) {
                if (f.path().endsWith("/libcoreclr.so")) {
                    return f.path();
                }
            }
            for (long[] a : auxv) {
                if (a[0] == AT_PHDR || a[0] == AT_ENTRY) {
                    for (FileMapping f : files) {
                        if (f.overlaps(a[1], a[1] + 1)) {
                            return f.path();
                        }
                    }
                }
            }
            return null;
        }

        private static boolean keeps(Phdr p, List<FileMapping> files, String runtime) {
            if ((p.flags() & PF_W) != 0) {
                return true;
            }
            long end = p.vaddr() + p.memsz();
            boolean fileBacked = false;
            boolean runtimeOnly = true;
            for (FileMapping f : files) {
                if (f.overlaps(p.vaddr(), end)) {
                    fileBacked = true;
                    runtimeOnly &= f.path().equals(runtime);
                }
            }
            if (!fileBacked) {
                return true; // anonymous memory
            }
            return runtimeOnly && (p.flags() & PF_X) == 0;
        }

        /**
         * The environment strings of the initial stack: the auxiliary vector (NT_AUXV holds a copy of it) lies on
         * the stack right after envp[]'s NULL; envp[] points at the strings. Returns how many strings were blanked.
         */
        private int environment(List<Phdr> phdrs, List<long[]> auxv, List<BlankRange> blanks, List<byte[]> values) throws IOException {
            long execfn = 0;
            for (long[] a : auxv) {
                if (a[0] == AT_EXECFN) {
                    execfn = a[1];
                }
            }
            if (execfn == 0 || auxv.isEmpty()) {
                return 0;
            }
            Phdr stack = null;
            for (Phdr p : phdrs) {
                if (p.type() == PT_LOAD && p.contains(execfn)) {
                    stack = p;
                }
            }
            if (stack == null || stack.filesz() > MAX_STACK_BYTES) {
                return 0;
            }
            ByteBuffer s = read(stack.offset(), stack.filesz(), "the initial stack");
            byte[] vector = new byte[16 * Math.min(auxv.size(), 4)];
            ByteBuffer v = ByteBuffer.wrap(vector).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < vector.length / 16; i++) {
                v.putLong(auxv.get(i)[0]).putLong(auxv.get(i)[1]);
            }
            int found = indexOf(s, vector);
            List<long[]> strings = new ArrayList<>();
            if (found >= 16 && s.getLong(found - 8) == 0) {
                for (int i = found - 16; i >= 0; i -= 8) {
                    long ptr = s.getLong(i);
                    if (ptr == 0) {
                        break;
                    }
                    if (!stack.contains(ptr)) {
                        strings.clear(); // not an envp[] after all
                        break;
                    }
                    strings.add(new long[] {ptr});
                }
            }
            int count = 0;
            for (long[] str : strings) {
                int start = (int) (str[0] - stack.vaddr());
                int end = start;
                while (end < s.limit() && s.get(end) != 0) {
                    end++;
                }
                if (end > start) {
                    blanks.add(new BlankRange(stack.offset() + start, end - start));
                    byte[] value = new byte[end - start];
                    s.get(start, value);
                    values.add(value);
                    count++;
                }
            }
            return count;
        }

        private static int indexOf(ByteBuffer s, byte[] needle) {
            int n = s.limit() - needle.length;
            outer:
            for (int i = 0; i <= n; i += 8) {
                for (int k = 0; k < needle.length; k++) {
                    if (s.get(i + k) != needle[k]) {
                        continue outer;
                    }
                }
                return i;
            }
            return -1;
        }
    }

    /** A core that cannot be trimmed; the message names the file and offset. */
    public static final class CoreFormatError extends IOException {
        public CoreFormatError(String message) {
            super(message);
        }
    }
}
